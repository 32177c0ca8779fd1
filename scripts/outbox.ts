// Prints the latest e-mails the server sent or kept (codes included), for an operator who
// runs without SMTP. Usage: OPERATOR_TOKEN=… npm run outbox [-- --to someone@example.com]
// Reads the running server's URL from PUBLIC_URL, else HOST and PORT (as `npm start` uses).

const token = process.env.OPERATOR_TOKEN;
if (!token) {
  console.error("outbox: set OPERATOR_TOKEN to the token the server was started with");
  process.exit(78);
}
const base =
  process.env.PUBLIC_URL ||
  `http://${process.env.HOST || "127.0.0.1"}:${process.env.PORT || "8080"}`;
const args = process.argv.slice(2);
const toIndex = args.indexOf("--to");
const query = new URLSearchParams({ limit: "20" });
if (toIndex >= 0 && args[toIndex + 1]) query.set("to", args[toIndex + 1]!);

const response = await fetch(`${base}/api/v1/operator/outbox?${query}`, {
  headers: { authorization: `Bearer ${token}` },
});
const body = (await response.json()) as {
  message: string;
  data: { emails: { createdAt: string; to: string; subject: string; text: string }[] } | null;
};
if (!response.ok || !body.data) {
  console.error(`outbox: ${response.status} ${body.message}`);
  process.exit(1);
}
if (body.data.emails.length === 0) console.log("The outbox is empty.");
for (const email of body.data.emails) {
  console.log(`${email.createdAt}  to ${email.to}\n  ${email.subject}\n  ${email.text}\n`);
}

export {};
