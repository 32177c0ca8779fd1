import type { FastifyInstance } from "fastify";

/**
 * Registers a user by phone number through HTTP, as a person would: asks for the texted code,
 * reads it from the operator's outbox (no SMS provider in tests) and registers with it.
 * Answers the register response (its `data` holds `token` and `user`).
 */
export async function registerByPhone(
  app: FastifyInstance,
  phone: string,
  operatorToken: string,
  options: {
    password?: string;
    /** The caller's address (a benchmark registering many users spreads them over addresses). */
    remoteAddress?: string;
    /** An inviter's code, as the invite link's form sends it. */
    inviteCode?: string;
  } = {},
) {
  const { password = "trade1234", remoteAddress, inviteCode } = options;
  const asked = await app.inject({
    method: "POST",
    url: "/api/v1/auth/phone-codes",
    payload: { phone, purpose: "register" },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
  if (asked.statusCode !== 200) throw new Error(`phone code for ${phone}: ${asked.body}`);
  const outbox = await app.inject({
    method: "GET",
    url: `/api/v1/operator/outbox?to=${encodeURIComponent(phone)}`,
    headers: { authorization: `Bearer ${operatorToken}` },
  });
  const text: string = outbox.json().data.emails[0]?.text ?? "";
  const phoneCode = /\b(\d{6})\b/.exec(text)?.[1];
  if (!phoneCode) throw new Error(`no texted code for ${phone}: ${outbox.body}`);
  return app.inject({
    method: "POST",
    url: "/api/v1/auth/register",
    payload: {
      account: phone,
      password,
      passwordConfirm: password,
      phoneCode,
      agreement: true,
      ...(inviteCode === undefined ? {} : { inviteCode }),
    },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}
