import type { FastifyInstance } from "fastify";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { routeTest } from "../../testing/route-test.ts";
import { inviteLink, maskAccount } from "./invitations.service.ts";

const operatorToken = "operator-token-for-tests";
const wallet = privateKeyToAccount(
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
);

it("masks invited accounts and builds the hash-routed link", () => {
  expect(maskAccount({ email: "alice@example.com", phone: null, wallet_address: null })).toBe(
    "a***e@example.com",
  );
  expect(maskAccount({ email: null, phone: "+4915112345678", wallet_address: null })).toBe(
    "+49****78",
  );
  expect(
    maskAccount({
      email: null,
      phone: null,
      wallet_address: "0x1234567890abcdef1234567890abcdef12345678",
    }),
  ).toBe("0x1234…5678");
  expect(inviteLink("https://trade.example.com/", "AB12CD34")).toBe(
    "https://trade.example.com/#/register?invite=AB12CD34",
  );
});

describeEachDatabase("invitations", (database) => {
  const kit = routeTest("10.5.0", operatorToken);
  let app: FastifyInstance;
  let inviterToken = "";
  let inviterId = "";
  let inviteCode = "";
  beforeAll(async () => {
    app = await kit.startApp(database(), {
      publicUrl: "https://trade.example.com",
      accounts: { async open() {} },
    });
    const inviter = await kit.signUp("inviter", "+4915100000001");
    inviterToken = inviter.token;
    inviterId = inviter.id;
    inviteCode = (
      await database()
        .db.selectFrom("users")
        .select("invite_code")
        .where("id", "=", BigInt(inviterId))
        .executeTakeFirstOrThrow()
    ).invite_code;
  });
  afterAll(kit.close);

  const me = (token?: string, query = "") =>
    app.inject({
      method: "GET",
      url: `/api/v1/invitations/me${query}`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  it("answers my id, code, link and QR code, with nobody invited yet", async () => {
    const response = await me(inviterToken);
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      userId: inviterId,
      inviteCode,
      link: `https://trade.example.com/#/register?invite=${inviteCode}`,
      invitedCount: 0,
      records: [],
    });
    expect(data.qrSvg).toMatch(/^<svg[^>]*>[\s\S]*<\/svg>\s*$/);
    expect(data).not.toHaveProperty("rebates");
  });

  it("records a phone sign-up and a first wallet sign-in with the code, masked", async () => {
    const asked = await app.inject({
      method: "POST",
      url: "/api/v1/auth/phone-codes",
      payload: { phone: "+4915100000002", purpose: "register" },
    });
    expect(asked.statusCode).toBe(200);
    const outbox = await app.inject({
      method: "GET",
      url: `/api/v1/operator/outbox?to=${encodeURIComponent("+4915100000002")}`,
      headers: { authorization: `Bearer ${operatorToken}` },
    });
    const phoneCode = /\b(\d{6})\b/.exec(outbox.json().data.emails[0].text)![1];
    const form = {
      account: "+4915100000002",
      password: "trade1234",
      passwordConfirm: "trade1234",
      phoneCode,
      agreement: true,
    };
    const unknown = await app.inject({
      method: "POST",
      url: "/api/v1/auth/register",
      headers: { "x-lang": "de" },
      payload: { ...form, inviteCode: "NOSUCH1" },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toBe("invite_code_invalid");
    const english = await app.inject({
      method: "POST",
      url: "/api/v1/auth/register",
      payload: { ...form, inviteCode: "NOSUCH1" },
    });
    expect(unknown.json().message).not.toBe(english.json().message);
    const registered = await app.inject({
      method: "POST",
      url: "/api/v1/auth/register",
      payload: { ...form, inviteCode },
    });
    expect(registered.statusCode).toBe(200);

    const signIn = async (code?: string) => {
      const nonce = await app.inject({
        method: "GET",
        url: `/api/v1/auth/wallet/nonce?address=${wallet.address}&chainId=56`,
      });
      const { message } = nonce.json().data;
      return app.inject({
        method: "POST",
        url: "/api/v1/auth/wallet/login",
        payload: {
          address: wallet.address,
          message,
          signature: await wallet.signMessage({ message }),
          walletType: 2,
          ...(code ? { inviteCode: code } : {}),
        },
      });
    };
    for (const malformed of ["abc", "lower1234", "X".repeat(13), "' OR 1=1 --"]) {
      const response = await signIn(malformed);
      expect(response.statusCode, malformed).toBe(400);
      expect(response.json().error).toBe("validation_failed");
    }
    expect((await signIn("NOSUCH1")).json().error).toBe("invite_code_invalid");
    expect((await signIn(inviteCode)).statusCode).toBe(200);
    // Signing in again with the code records nothing more: the inviter is recorded once.
    expect((await signIn(inviteCode)).statusCode).toBe(200);

    const data = (await me(inviterToken)).json().data;
    expect(data.invitedCount).toBe(2);
    expect(data.records.map((r: { account: string }) => r.account).sort()).toEqual(
      [`${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`, "+49****02"].sort(),
    );
    // Only the inviter sees them: the invited user sees its own (empty) records.
    const invited = (await me(registered.json().data.token)).json().data;
    expect(invited).toMatchObject({ invitedCount: 0, records: [] });
    expect(invited.userId).not.toBe(inviterId);
    expect((await me(inviterToken, "?limit=1")).json().data.records).toHaveLength(1);
  });

  it.each([
    ["?limit=0", "zero limit"],
    ["?limit=101", "oversized limit"],
    ["?limit=-1", "negative limit"],
    ["?limit=1.5", "over-precise limit"],
    ["?limit=abc", "non-numeric limit"],
    [`?limit=${"9".repeat(40)}`, "huge limit"],
    ["?userId=1", "another user's id"],
  ])("rejects %s (%s) with a 400", async (query) => {
    const response = await me(inviterToken, query);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("validation_failed");
  });

  it("needs a signed-in user", async () => {
    expect((await me()).statusCode).toBe(401);
    expect((await me("nonsense")).statusCode).toBe(401);
  });
});
