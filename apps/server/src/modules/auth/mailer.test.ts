import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { startSmtpSink, type SunkMail } from "../../testing/smtp-sink.ts";

describeEachDatabase("e-mail over SMTP", (database) => {
  let received: SunkMail[];
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let app: FastifyInstance;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    received = smtp.mails;
    app = await buildApp({
      database: database(),
      passwordCost: 10,
      captcha: "off",
      smtpUrl: smtp.url,
      mailFrom: "Candor <no-reply@candor.test>",
    });
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  it("delivers the code by a real SMTP exchange, in the user's language, and it registers", async () => {
    const sent = await app.inject({
      method: "POST",
      url: "/api/v1/auth/email-codes",
      headers: { "x-lang": "de" },
      payload: { email: "mail@example.com", purpose: "register" },
    });
    expect(sent.statusCode).toBe(200);
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.from).toBe("no-reply@candor.test");
    expect(mail.to).toEqual(["mail@example.com"]);
    const code = /Best=C3=A4tigungscode lautet (\d{6})|Bestätigungscode lautet (\d{6})/.exec(
      mail.raw,
    );
    expect(code).not.toBeNull();
    const emailCode = code![1] ?? code![2]!;
    const registered = await app.inject({
      method: "POST",
      url: "/api/v1/auth/register",
      payload: {
        account: "mail@example.com",
        password: "secret123",
        passwordConfirm: "secret123",
        emailCode,
        agreement: true,
      },
    });
    expect(registered.statusCode).toBe(200);
    const outbox = await database()
      .db.selectFrom("outbox_emails")
      .selectAll()
      .where("to_address", "=", "mail@example.com")
      .execute();
    expect(outbox.map((row) => row.delivery)).toEqual(["smtp"]);
  });

  it("puts the user's anti-phishing code at the top of every e-mail sent to them", async () => {
    const signedIn = await app.inject({
      method: "POST",
      url: "/api/v1/auth/login",
      payload: { account: "mail@example.com", password: "secret123" },
    });
    const token: string = signedIn.json().data.token;
    const set = await app.inject({
      method: "PUT",
      url: "/api/v1/me/anti-phishing",
      headers: { authorization: `Bearer ${token}` },
      payload: { code: "Ocelot99", tradePassword: "secret123" },
    });
    expect(set.statusCode, set.body).toBe(200);
    const before = received.length;
    const sent = await app.inject({
      method: "POST",
      url: "/api/v1/auth/email-codes",
      payload: { email: "mail@example.com", purpose: "reset_password" },
    });
    expect(sent.statusCode).toBe(200);
    expect(received).toHaveLength(before + 1);
    // Quoted-printable wraps long lines with a soft break ("=" at the end of a line).
    const body = received[before]!.raw.replace(/=\r?\n/g, "");
    expect(body).toContain(
      "Your anti-phishing code: Ocelot99. An e-mail from Candor without it is not from us.",
    );
    expect(body.indexOf("Ocelot99")).toBeLessThan(body.indexOf("verification code"));
  });

  it("answers mail_unavailable when SMTP is down, keeping the e-mail in the outbox", async () => {
    const down = await buildApp({
      database: database(),
      passwordCost: 10,
      captcha: "off",
      smtpUrl: "smtp://127.0.0.1:1",
    });
    try {
      const response = await down.inject({
        method: "POST",
        url: "/api/v1/auth/email-codes",
        headers: { "x-lang": "sv" },
        payload: { email: "down@example.com", purpose: "register" },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        error: "mail_unavailable",
        message: "E-postmeddelandet kunde inte skickas, försök igen senare",
      });
      const kept = await database()
        .db.selectFrom("outbox_emails")
        .select("to_address")
        .where("to_address", "=", "down@example.com")
        .execute();
      expect(kept).toHaveLength(1);
    } finally {
      await down.close();
    }
  });
});
