import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../../testing/databases.ts";
import { totpCode } from "./totp.ts";
import { OperatorAccounts, twoPersonRule } from "./operator-accounts.ts";
import type { SessionBus, SessionChange } from "./sessions.ts";

describeEachDatabase("operator accounts", (database) => {
  let nowMs = Date.parse("2026-11-27T10:00:00Z");
  const accounts = () => new OperatorAccounts(database(), () => nowMs, 10);
  const password = "correct horse battery";

  it("bootstraps the first admin once, enrols TOTP, signs in and refuses a replayed code", async () => {
    const enrolment = await accounts().bootstrapAdmin({
      email: "Admin@Candor.test",
      displayName: "Ada",
      password,
    });
    expect(enrolment.operator.role).toBe("admin");
    expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
    await expect(
      accounts().bootstrapAdmin({ email: "b@candor.test", displayName: "B", password }),
    ).rejects.toMatchObject({ code: "forbidden" });

    // No session before TOTP is confirmed.
    await expect(
      accounts().signIn("admin@candor.test", password, totpCode(enrolment.totpSecret, nowMs)),
    ).rejects.toMatchObject({ code: "two_factor_not_enabled" });
    await expect(
      accounts().confirmTotp("admin@candor.test", password, "000000"),
    ).rejects.toMatchObject({ code: "two_factor_invalid" });
    await accounts().confirmTotp(
      "admin@candor.test",
      password,
      totpCode(enrolment.totpSecret, nowMs),
    );

    // The code used for enrolment cannot be replayed within its window.
    await expect(
      accounts().signIn("admin@candor.test", password, totpCode(enrolment.totpSecret, nowMs)),
    ).rejects.toMatchObject({ code: "two_factor_invalid" });
    await expect(
      accounts().signIn("admin@candor.test", "wrong password!!", "123456"),
    ).rejects.toMatchObject({ code: "invalid_credentials" });
    nowMs += 30_000;
    const session = await accounts().signIn(
      "admin@candor.test",
      password,
      totpCode(enrolment.totpSecret, nowMs),
    );
    expect((await accounts().byToken(session.token))?.email).toBe("admin@candor.test");

    // Role checks on top of the session.
    const admin = await accounts().authorise(session.token, "POST", "/api/v1/operator/accounts");
    const finance = await accounts().create(
      admin,
      { email: "fin@candor.test", displayName: "Fin", password, role: "finance" },
      "new finance hire",
    );
    await accounts().confirmTotp("fin@candor.test", password, totpCode(finance.totpSecret, nowMs));
    nowMs += 30_000;
    const financeSession = await accounts().signIn(
      "fin@candor.test",
      password,
      totpCode(finance.totpSecret, nowMs),
    );
    await expect(
      accounts().authorise(financeSession.token, "POST", "/api/v1/operator/accounts"),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      accounts().create(
        financeSession.operator,
        { email: "x@candor.test", displayName: "X", password, role: "admin" },
        "escalation",
      ),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect(
      (
        await accounts().authorise(
          financeSession.token,
          "POST",
          "/api/v1/operator/withdrawals/:withdrawalId/approve",
        )
      ).id,
    ).toBe(finance.operator.id);

    await accounts().signOut(session.token);
    expect(await accounts().byToken(session.token)).toBeNull();
    nowMs += 9 * 60 * 60 * 1000;
    expect(await accounts().byToken(financeSession.token)).toBeNull();
    await expect(
      accounts().authorise("nonsense", "GET", "/api/v1/operator/me"),
    ).rejects.toMatchObject({ code: "unauthorized" });

    // Enrolments and sign-ins are in the audit log, newest first (creation and bootstrap are
    // recorded by the HTTP audit hook: operator-flow.routes.test.ts).
    const log = await accounts().auditLog({});
    expect(log.map((entry) => entry.action)).toEqual([
      "operator.sign_in",
      "operator.totp_enrolled",
      "operator.sign_in",
      "operator.totp_enrolled",
    ]);
    expect(log[1]).toMatchObject({ operatorId: finance.operator.id });
    await accounts().audit(finance.operator.id, "user.freeze", "fraud report", "42", "");
    expect(await accounts().auditLog({ userId: "42" })).toMatchObject([
      { action: "user.freeze", operatorId: finance.operator.id, userId: "42" },
    ]);
  });

  it("ends an operator's session on the other nodes over the session bus", async () => {
    // An in-memory bus that, as NATS does, also delivers a node's own messages back to it.
    const listeners = new Set<(change: SessionChange, nodeId: string) => void>();
    const published: SessionChange[] = [];
    const bus = (nodeId: string): SessionBus => ({
      nodeId,
      publish(change) {
        published.push(change);
        for (const listener of listeners) listener(change, nodeId);
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    const nodeA = new OperatorAccounts(database(), () => nowMs, 10, bus("a"));
    const nodeB = new OperatorAccounts(database(), () => nowMs, 10, bus("b"));
    const endedOnA: string[] = [];
    const endedOnB: string[] = [];
    nodeA.onSignOut((tokenHash) => endedOnA.push(tokenHash));
    nodeB.onSignOut((tokenHash) => endedOnB.push(tokenHash));
    await nodeA.signOut("an operator session token");
    const tokenHash = createHash("sha256").update("an operator session token").digest("hex");
    expect(published).toEqual([{ kind: "operator_revoke", tokenHash }]);
    // Once on each node: A when it signed out (not again for its own echo), B from the bus.
    expect(endedOnA).toEqual([tokenHash]);
    expect(endedOnB).toEqual([tokenHash]);
    // A user's session change is not an operator's.
    bus("c").publish({ kind: "revoke", userId: 5n, tokenHash });
    expect(endedOnB).toEqual([tokenHash]);
    // Closed: B no longer listens.
    nodeB.close();
    await nodeA.signOut("another token");
    expect(endedOnA).toHaveLength(2);
    expect(endedOnB).toHaveLength(1);
    nodeA.close();
  });
});

it("two-person rule: two different operators above the threshold", () => {
  expect(twoPersonRule(100n, 1_000n, ["1"])).toBe("approved");
  expect(twoPersonRule(5_000n, 1_000n, ["1"])).toBe("needs_second");
  expect(twoPersonRule(5_000n, 1_000n, ["1", "2"])).toBe("approved");
  expect(() => twoPersonRule(5_000n, 1_000n, ["1", "1"])).toThrow();
  expect(twoPersonRule(5_000n, 1_000n, [])).toBe("needs_second");
});
