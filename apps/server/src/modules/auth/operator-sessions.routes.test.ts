import { expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { OperatorAccounts } from "./operator-accounts.ts";
import { totpCode } from "./totp.ts";

// Named operators' sessions on real routes: the role table decides, per endpoint.

describeEachDatabase("operator sessions on routes", (database) => {
  let nowMs = Date.parse("2026-11-27T10:00:00Z");
  const password = "correct horse battery";

  it("admin may read the outbox, support may not, no token may not; the bootstrap token is retired", async () => {
    const accounts = new OperatorAccounts(database(), () => nowMs, 10);
    const admin = await accounts.bootstrapAdmin({
      email: "admin@candor.test",
      displayName: "Ada",
      password,
    });
    await accounts.confirmTotp("admin@candor.test", password, totpCode(admin.totpSecret, nowMs));
    const support = await accounts.create(
      admin.operator,
      { email: "help@candor.test", displayName: "Sam", password, role: "support" },
      "support desk",
    );
    await accounts.confirmTotp("help@candor.test", password, totpCode(support.totpSecret, nowMs));
    nowMs += 30_000;
    const adminSession = await accounts.signIn(
      "admin@candor.test",
      password,
      totpCode(admin.totpSecret, nowMs),
    );
    const supportSession = await accounts.signIn(
      "help@candor.test",
      password,
      totpCode(support.totpSecret, nowMs),
    );
    const app = await buildApp({
      database: database(),
      now: () => nowMs,
      operatorToken: "bootstrap-operator-token",
      captcha: "off",
      passwordCost: 10,
    });
    try {
      const outbox = (authorization?: string) =>
        app.inject({
          method: "GET",
          url: "/api/v1/operator/outbox",
          headers: authorization ? { authorization } : {},
        });
      expect((await outbox(`Bearer ${adminSession.token}`)).statusCode).toBe(200);
      expect((await outbox(`Bearer ${supportSession.token}`)).statusCode).toBe(403);
      expect((await outbox()).statusCode).toBe(401);
      expect((await outbox("Bearer not-a-session")).statusCode).toBe(401);
      // Named operators exist: the bootstrap token is retired.
      const retired = await outbox("Bearer bootstrap-operator-token");
      expect([retired.statusCode, retired.json().error]).toEqual([403, "bootstrap_token_retired"]);

      // The audit log: compliance and admin only; every sign-in and creation is in it.
      const audit = (authorization: string) =>
        app.inject({ method: "GET", url: "/api/v1/operator/audit", headers: { authorization } });
      expect((await audit(`Bearer ${supportSession.token}`)).statusCode).toBe(403);
      const log = await audit(`Bearer ${adminSession.token}`);
      expect(log.statusCode, log.body).toBe(200);
      expect(log.json().data.entries.map((entry: { action: string }) => entry.action)).toEqual([
        "operator.sign_in",
        "operator.sign_in",
        "operator.totp_enrolled",
        "operator.totp_enrolled",
      ]);
    } finally {
      await app.close();
    }
  });
});
