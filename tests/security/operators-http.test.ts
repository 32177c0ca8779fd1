// Named operators over HTTP (issue 17): the bootstrap of the first admin, TOTP enrolment and
// sign-in, the bootstrap token's retirement, every operator endpoint × role, the two-person
// rule (manual adjustments and withdrawals), freezing, reasons, the audit log and the user's
// own history. One app for the whole file: once operators exist the bootstrap token is retired.
import type { EndpointSpec } from "@candor/contract";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  bootstrapTokenOnly,
  roleMayCall,
  type OperatorRole,
} from "../../apps/server/src/modules/auth/operator-roles.ts";
import { totpCode } from "../../apps/server/src/modules/auth/totp.ts";
import { describeEachDatabase } from "../../apps/server/src/testing/databases.ts";
import {
  concretePath,
  operatorToken,
  startSecurityApp,
  type SecurityApp,
  type SuiteUser,
} from "./security-app.ts";

const password = "correct horse battery staple";
const savedAddress = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

interface Named {
  id: string;
  email: string;
  secret: string;
  token: string;
}

describeEachDatabase("named operators over HTTP", (database) => {
  let suite: SecurityApp;
  let rich: SuiteUser;
  let other: SuiteUser;
  const ops: Partial<Record<OperatorRole | "finance2", Named>> = {};

  const inject = (
    method: string,
    url: string,
    token?: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) => {
    suite.tick(1_000);
    return suite.app.inject({
      method: method as "GET",
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(method === "GET" || method === "DELETE" ? {} : { payload: payload ?? {} }),
    });
  };
  const data = (response: { statusCode: number; body: string; json(): unknown }) => {
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { data: Record<string, unknown> }).data as never;
  };
  const errorOf = (response: { statusCode: number; json(): unknown }) => [
    response.statusCode,
    (response.json() as { error: string }).error,
  ];

  /** Confirms TOTP and signs in over HTTP (a new 30-second step each time). */
  async function enrolAndSignIn(
    email: string,
    secret: string,
    withPassword = password,
  ): Promise<string> {
    suite.tick(31_000);
    data(
      await inject("POST", "/api/v1/operator/totp/confirm", undefined, {
        email,
        password: withPassword,
        code: totpCode(secret, suite.now()),
      }),
    );
    suite.tick(31_000);
    const signedIn: { token: string } = data(
      await inject("POST", "/api/v1/operator/sign-in", undefined, {
        email,
        password: withPassword,
        code: totpCode(secret, suite.now()),
      }),
    );
    return signedIn.token;
  }

  beforeAll(async () => {
    suite = await startSecurityApp(database(), { adjustmentTwoApprovalsAbove: { USDT: "50000" } });
    rich = await suite.register("+4915192000001");
    other = await suite.register("+4915192000002");
    // Funded with the bootstrap token while it still works (audited with operator id null).
    await suite.credit(rich, "USDT", "20000");
  }, 120_000);
  afterAll(() => suite?.close());

  it("bootstraps the first admin, who confirms TOTP (wrong and replayed codes refused) and signs in", async () => {
    const enrolment: { operator: { id: string }; totpSecret: string } = data(
      await inject("POST", "/api/v1/operator/bootstrap", operatorToken, {
        email: "ada@candor.test",
        displayName: "Ada",
        password,
      }),
    );
    const secret = enrolment.totpSecret;
    // Before confirmation, no session.
    const early = await inject("POST", "/api/v1/operator/sign-in", undefined, {
      email: "ada@candor.test",
      password,
      code: totpCode(secret, suite.now()),
    });
    expect(errorOf(early)).toEqual([409, "two_factor_not_enabled"]);
    const wrong = await inject("POST", "/api/v1/operator/totp/confirm", undefined, {
      email: "ada@candor.test",
      password,
      code: totpCode(secret, suite.now()) === "000000" ? "111111" : "000000",
    });
    expect(errorOf(wrong)).toEqual([403, "two_factor_invalid"]);
    const code = totpCode(secret, suite.now());
    data(
      await inject("POST", "/api/v1/operator/totp/confirm", undefined, {
        email: "ada@candor.test",
        password,
        code,
      }),
    );
    // The same code again within its window: refused.
    const replayed = await inject("POST", "/api/v1/operator/sign-in", undefined, {
      email: "ada@candor.test",
      password,
      code,
    });
    expect(errorOf(replayed)).toEqual([403, "two_factor_invalid"]);
    const badPassword = await inject("POST", "/api/v1/operator/sign-in", undefined, {
      email: "ada@candor.test",
      password: "not the password at all",
      code: "123456",
    });
    expect(errorOf(badPassword)).toEqual([401, "invalid_credentials"]);
    suite.tick(31_000);
    const session: { token: string; operator: { role: string } } = data(
      await inject("POST", "/api/v1/operator/sign-in", undefined, {
        email: "ada@candor.test",
        password,
        code: totpCode(secret, suite.now()),
      }),
    );
    expect(session.operator.role).toBe("admin");
    ops.admin = {
      id: enrolment.operator.id,
      email: "ada@candor.test",
      secret,
      token: session.token,
    };
    const me: { operator: { id: string } } = data(
      await inject("GET", "/api/v1/operator/me", session.token),
    );
    expect(me.operator.id).toBe(enrolment.operator.id);
  });

  it("retires the bootstrap token on every endpoint once an operator exists", async () => {
    for (const [method, url] of [
      ["POST", "/api/v1/operator/bootstrap"],
      ["GET", "/api/v1/operator/outbox"],
      ["GET", "/api/v1/operator/users"],
    ] as const) {
      const response = await inject(method, url, operatorToken, {
        email: "eve@candor.test",
        displayName: "Eve",
        password,
      });
      expect(errorOf(response), url).toEqual([403, "bootstrap_token_retired"]);
    }
    const german = await inject("GET", "/api/v1/operator/users", operatorToken, undefined, {
      "x-lang": "de",
    });
    expect(german.json().message).toMatch(/Bootstrap-Token/);
  });

  it("the admin creates support, compliance and two finance operators; each signs in", async () => {
    const admin = ops.admin!;
    for (const [key, role] of [
      ["support", "support"],
      ["compliance", "compliance"],
      ["finance", "finance"],
      ["finance2", "finance"],
    ] as const) {
      const email = `${key}@candor.test`;
      const created: { operator: { id: string; role: string }; totpSecret: string } = data(
        await inject("POST", "/api/v1/operator/accounts", admin.token, {
          email,
          displayName: key,
          password,
          role,
          reason: `new ${key} hire`,
        }),
      );
      expect(created.operator.role).toBe(role);
      const token = await enrolAndSignIn(email, created.totpSecret);
      ops[key] = { id: created.operator.id, email, secret: created.totpSecret, token };
    }
    const list: { operators: { role: string }[] } = data(
      await inject("GET", "/api/v1/operator/accounts", admin.token),
    );
    expect(list.operators.map((o) => o.role)).toEqual([
      "admin",
      "support",
      "compliance",
      "finance",
      "finance",
    ]);
    // Only an admin creates operators.
    const refused = await inject("POST", "/api/v1/operator/accounts", ops.finance!.token, {
      email: "x@candor.test",
      displayName: "X",
      password,
      role: "admin",
      reason: "self-promotion",
    });
    expect(errorOf(refused)).toEqual([403, "forbidden"]);
  });

  it("every operator endpoint × role: exactly the roles of the table get past authorisation", async () => {
    const endpoints = suite.app.endpoints.filter(
      (e: EndpointSpec) => e.auth === "operator" && e.path !== "/api/v1/operator/sign-out",
    );
    expect(endpoints.length).toBeGreaterThan(30);
    for (const endpoint of endpoints) {
      const key = `${endpoint.method} ${endpoint.path}`;
      for (const role of ["support", "compliance", "finance", "admin"] as const) {
        const response = await inject(
          endpoint.method,
          concretePath(endpoint.path),
          ops[role]!.token,
        );
        const allowed = roleMayCall(role, endpoint.method, endpoint.path);
        expect(bootstrapTokenOnly.includes(key) ? false : allowed, `${key} as ${role}`).toBe(
          allowed,
        );
        if (allowed) {
          expect(response.statusCode, `${key} as ${role}: ${response.body}`).not.toBe(403);
          expect(response.statusCode, `${key} as ${role}`).not.toBe(401);
          expect(response.statusCode, `${key} as ${role}: ${response.body}`).toBeLessThan(500);
        } else {
          expect(errorOf(response), `${key} as ${role}`).toEqual([403, "forbidden"]);
        }
      }
    }
  });

  it("an admin lets a disabled operator back in: same id, a new password and authenticator, confirmed first", async () => {
    const admin = ops.admin!;
    const email = "returning@candor.test";
    const created: { operator: { id: string }; totpSecret: string } = data(
      await inject("POST", "/api/v1/operator/accounts", admin.token, {
        email,
        displayName: "Returning",
        password,
        role: "support",
        reason: "new desk hire",
      }),
    );
    const id = created.operator.id;
    await enrolAndSignIn(email, created.totpSecret);
    const newPassword = "a different horse, stapled";
    const body = { password: newPassword, reason: "back from long leave" };
    const enable = (token: string, operatorId: string, payload: object, lang = "en") =>
      inject("POST", `/api/v1/operator/accounts/${operatorId}/enable`, token, payload, {
        "x-lang": lang,
      });
    const disabled = async () => {
      const list: { operators: { id: string; disabled: boolean }[] } = data(
        await inject("GET", "/api/v1/operator/accounts", admin.token),
      );
      return list.operators.find((o) => o.id === id)!.disabled;
    };
    // Only a disabled operator comes back (an enabled one keeps their own credentials).
    expect(errorOf(await enable(admin.token, id, body))).toEqual([409, "operator_not_disabled"]);
    data(
      await inject("POST", `/api/v1/operator/accounts/${id}/disable`, admin.token, {
        reason: "long leave",
      }),
    );
    // Refused, and nothing changes: not an admin, nobody, malformed ids and bodies, oversized.
    expect(errorOf(await enable(ops.finance!.token, id, body))).toEqual([403, "forbidden"]);
    expect(errorOf(await enable(admin.token, "999999", body))).toEqual([404, "operator_not_found"]);
    for (const [operatorId, payload] of [
      ["-1", body],
      ["1.5", body],
      ["1".repeat(19), body],
      [id, { reason: body.reason }],
      [id, { password: newPassword }],
      [id, { password: "too short", reason: body.reason }],
      [id, { password: "x".repeat(129), reason: body.reason }],
      [id, { ...body, role: "admin" }],
    ] as const) {
      const refused = await enable(admin.token, operatorId, payload);
      expect(errorOf(refused), `${operatorId} ${JSON.stringify(payload)}`).toEqual([
        400,
        "validation_failed",
      ]);
    }
    const oversized = await enable(admin.token, id, { ...body, reason: "x".repeat(3_000) });
    expect(oversized.statusCode).toBe(413);
    const english = await enable(admin.token, "999999", body);
    const german = await enable(admin.token, "999999", body, "de");
    expect(german.json().message).not.toBe(english.json().message);
    expect(await disabled()).toBe(true);

    const back: { operator: { id: string; email: string }; totpSecret: string } = data(
      await enable(admin.token, id, body),
    );
    expect(back.operator).toMatchObject({ id, email });
    expect(back.totpSecret).not.toBe(created.totpSecret);
    expect(await disabled()).toBe(false);
    // What they held when they left opens nothing; the new password needs the new authenticator
    // confirmed first.
    suite.tick(31_000);
    const old = await inject("POST", "/api/v1/operator/sign-in", undefined, {
      email,
      password,
      code: totpCode(created.totpSecret, suite.now()),
    });
    expect(errorOf(old)).toEqual([401, "invalid_credentials"]);
    const unconfirmed = await inject("POST", "/api/v1/operator/sign-in", undefined, {
      email,
      password: newPassword,
      code: totpCode(back.totpSecret, suite.now()),
    });
    expect(errorOf(unconfirmed)[1]).toBe("two_factor_not_enabled");
    const token = await enrolAndSignIn(email, back.totpSecret, newPassword);
    const me: { operator: { id: string } } = data(
      await inject("GET", "/api/v1/operator/me", token),
    );
    expect(me.operator.id).toBe(id);
    // Audited with the reason; the password is not copied into the log.
    const audit: { entries: { action: string; reason: string; detail: string }[] } = data(
      await inject("GET", "/api/v1/operator/audit?limit=20", admin.token),
    );
    const entry = audit.entries.find(
      (e) => e.action === "POST /api/v1/operator/accounts/:operatorId/enable",
    );
    expect(entry).toMatchObject({
      reason: body.reason,
      detail: JSON.stringify({ operatorId: id }),
    });
  });

  it("requires a reason: missing, too short or too long → 400 in the caller's language", async () => {
    const url = `/api/v1/operator/users/${other.id}/freeze`;
    for (const body of [{}, { reason: "no" }, { reason: "   x   " }, { reason: "x".repeat(501) }]) {
      const english = await inject("POST", url, ops.support!.token, body);
      expect(errorOf(english), JSON.stringify(body)).toEqual([400, "validation_failed"]);
      expect(english.json().issues.map((i: { path: string }) => i.path)).toContain("body.reason");
      const german = await inject("POST", url, ops.support!.token, body, { "x-lang": "de" });
      expect(german.statusCode).toBe(400);
      expect(german.json().message).not.toBe(english.json().message);
    }
    // Nothing happened: the user is not frozen and no audit entry names them.
    const detail: { user: { frozen: boolean }; audit: unknown[] } = data(
      await inject("GET", `/api/v1/operator/users/${other.id}`, ops.support!.token),
    );
    expect(detail.user.frozen).toBe(false);
    expect(detail.audit).toEqual([]);
  });

  it("freezing ends the user's sessions and refuses sign-in; unfreezing restores it", async () => {
    const victim = await suite.login("+4915192000002");
    const frozen: { user: { frozen: boolean } } = data(
      await inject("POST", `/api/v1/operator/users/${other.id}/freeze`, ops.support!.token, {
        reason: "fraud report #42",
      }),
    );
    expect(frozen.user.frozen).toBe(true);
    const me = await inject("GET", "/api/v1/me", victim.token);
    expect(me.statusCode).toBe(401);
    const signIn = await inject("POST", "/api/v1/auth/login", undefined, {
      account: "+4915192000002",
      password: "trade1234",
    });
    expect(errorOf(signIn)).toEqual([403, "account_frozen"]);
    const german = await inject(
      "POST",
      "/api/v1/auth/login",
      undefined,
      { account: "+4915192000002", password: "trade1234" },
      { "x-lang": "de" },
    );
    expect(german.json().message).toMatch(/gesperrt/);
    // Finance may not unfreeze; compliance may.
    const refused = await inject(
      "POST",
      `/api/v1/operator/users/${other.id}/unfreeze`,
      ops.finance!.token,
      { reason: "cleared" },
    );
    expect(errorOf(refused)).toEqual([403, "forbidden"]);
    data(
      await inject("POST", `/api/v1/operator/users/${other.id}/unfreeze`, ops.compliance!.token, {
        reason: "cleared by compliance",
      }),
    );
    const back = await suite.login("+4915192000002");
    expect(back.token).toBeTruthy();

    // The audit log names who, what, why and whom; the user sees it in their own history.
    const log: { entries: { operatorId: string; action: string; reason: string }[] } = data(
      await inject("GET", `/api/v1/operator/audit?userId=${other.id}`, ops.compliance!.token),
    );
    expect(log.entries.map((e) => [e.operatorId, e.action, e.reason])).toEqual([
      [ops.compliance!.id, "POST /api/v1/operator/users/:userId/unfreeze", "cleared by compliance"],
      [ops.support!.id, "POST /api/v1/operator/users/:userId/freeze", "fraud report #42"],
    ]);
    const history: { entries: { operatorId: string; reason: string }[] } = data(
      await inject("GET", "/api/v1/me/account-history", back.token),
    );
    expect(history.entries.map((e) => [e.operatorId, e.reason])).toEqual([
      [ops.compliance!.id, "cleared by compliance"],
      [ops.support!.id, "fraud report #42"],
    ]);
  });

  it("an adjustment above the limit waits for a second, different operator", async () => {
    // Up to the limit: credited at once, the named operator on the posting and in the log.
    const credited: { pendingAdjustmentId: string | null } = data(
      await inject("POST", "/api/v1/operator/deposits", ops.finance!.token, {
        id: "named-credit-1",
        ownerId: other.id,
        assetId: "USDT",
        amount: "5",
        reference: "bank tx 1",
        reason: "goodwill credit",
      }),
    );
    expect(credited.pendingAdjustmentId).toBeNull();
    const log: { entries: { operatorId: string; action: string; userId: string }[] } = data(
      await inject("GET", `/api/v1/operator/audit?userId=${other.id}&limit=1`, ops.admin!.token),
    );
    expect(log.entries[0]).toMatchObject({
      operatorId: ops.finance!.id,
      action: "POST /api/v1/operator/deposits",
      userId: other.id,
    });

    // Above it: nothing credited until a second, different operator approves.
    const hash = suite.engine.stateHash();
    const asked: { pendingAdjustmentId: string } = data(
      await inject("POST", "/api/v1/operator/deposits", ops.finance!.token, {
        id: "big-credit-1",
        ownerId: other.id,
        assetId: "USDT",
        amount: "60000",
        reference: "bank tx 2",
        reason: "settlement of complaint #7",
      }),
    );
    const adjustmentId = asked.pendingAdjustmentId;
    expect(adjustmentId).toMatch(/^\d+$/);
    expect(suite.engine.stateHash()).toBe(hash);
    const pending: { items: { adjustmentId: string; requestedBy: string }[] } = data(
      await inject("GET", "/api/v1/operator/adjustments", ops.finance2!.token),
    );
    expect(pending.items).toMatchObject([{ adjustmentId, requestedBy: ops.finance!.id }]);
    const approve = (who: Named) =>
      inject("POST", `/api/v1/operator/adjustments/${adjustmentId}/approve`, who.token, {
        reason: "second pair of eyes",
      });
    // The requester cannot approve their own request, however often they try.
    expect(errorOf(await approve(ops.finance!))).toEqual([409, "approval_same_operator"]);
    expect(errorOf(await approve(ops.finance!))).toEqual([409, "approval_same_operator"]);
    expect(errorOf(await approve(ops.support!))).toEqual([403, "forbidden"]);
    expect(suite.engine.stateHash()).toBe(hash);
    const approved: { adjustment: { status: string; decidedBy: string } } = data(
      await approve(ops.finance2!),
    );
    expect(approved.adjustment).toMatchObject({ status: "credited", decidedBy: ops.finance2!.id });
    expect(errorOf(await approve(ops.admin!))).toEqual([409, "adjustment_state_invalid"]);

    // The user's statement names both operators; their history shows both actions.
    const user = await suite.login("+4915192000002");
    let line: { operatorIds: string[]; amount: string } | undefined;
    for (let i = 0; i < 50 && !line; i++) {
      const statement: { items: { operatorIds: string[]; amount: string }[] } = data(
        await inject("GET", "/api/v1/wallet/accounts/fund/statement", user.token),
      );
      line = statement.items.find((l) => l.operatorIds.length > 1);
      if (!line) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(line).toMatchObject({ operatorIds: [ops.finance!.id, ops.finance2!.id] });
    const history: { entries: { operatorId: string; action: string }[] } = data(
      await inject("GET", "/api/v1/me/account-history?limit=2", user.token),
    );
    expect(history.entries.map((e) => [e.operatorId, e.action])).toEqual([
      [ops.finance2!.id, "POST /api/v1/operator/adjustments/:adjustmentId/approve"],
      [ops.finance!.id, "POST /api/v1/operator/deposits"],
    ]);
  });

  it("a withdrawal above the limit: one operator cannot approve twice; two different can, and the statement names both", async () => {
    const owner = await suite.login("+4915192000001");
    const address = await inject("POST", "/api/v1/wallet/withdraw-addresses", owner.token, {
      network: "ethereum",
      address: savedAddress,
      remark: "ops",
    });
    const addressId: string = (data(address) as { address: { addressId: string } }).address
      .addressId;
    const requested: { withdrawalId: string } = data(
      await inject("POST", "/api/v1/wallet/withdrawals", owner.token, {
        requestId: crypto.randomUUID(),
        addressId,
        asset: "USDT",
        amount: "15000",
        tradePassword: "trade1234",
      }),
    );
    const id = requested.withdrawalId;
    const approve = (who: Named) =>
      inject("POST", `/api/v1/operator/withdrawals/${id}/approve`, who.token, {
        reason: "checked the address",
      });
    const first: { status: string } = data(await approve(ops.finance!));
    expect(first.status).toBe("pending");
    expect(errorOf(await approve(ops.finance!))).toEqual([409, "withdrawal_same_operator"]);
    const second: { status: string } = data(await approve(ops.finance2!));
    expect(second.status).toBe("approved");
    data(
      await inject("POST", `/api/v1/operator/withdrawals/${id}/sent`, ops.finance!.token, {
        txHash: `0x${"ab".repeat(32)}`,
        reason: "paid from the hot wallet",
      }),
    );
    data(
      await inject("POST", `/api/v1/operator/withdrawals/${id}/complete`, ops.finance2!.token, {
        reason: "confirmed on chain",
      }),
    );
    const view: { steps: { status: string; operatorId: string | null }[] } = data(
      await inject("GET", `/api/v1/wallet/withdrawals/${id}`, owner.token),
    );
    expect(view.steps.filter((s) => s.status === "approved").map((s) => s.operatorId)).toEqual([
      ops.finance!.id,
      ops.finance2!.id,
    ]);
    // The payout's statement line names both approvers.
    let line: { operatorIds: string[]; reason: string } | undefined;
    for (let i = 0; i < 50 && !line; i++) {
      const statement: { items: { operatorIds: string[]; reason: string; reference: string }[] } =
        data(await inject("GET", "/api/v1/wallet/accounts/fund/statement", owner.token));
      line = statement.items.find((l) => l.operatorIds.length > 1);
      if (!line) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(line?.operatorIds).toEqual([ops.finance!.id, ops.finance2!.id]);
  });

  it("shows system accounts' balances to finance and admin only", async () => {
    const shown: { accounts: { label: string; mode: string; asset: string }[] } = data(
      await inject("GET", "/api/v1/operator/system-accounts", ops.finance!.token),
    );
    expect(shown.accounts.map((a) => a.label)).toContain("system:external");
    expect(shown.accounts.map((a) => a.label)).toContain("system:fees");
    const refused = await inject("GET", "/api/v1/operator/system-accounts", ops.support!.token);
    expect(errorOf(refused)).toEqual([403, "forbidden"]);
  });

  it("signing out ends the operator's session", async () => {
    data(await inject("POST", "/api/v1/operator/sign-out", ops.support!.token));
    const after = await inject("GET", "/api/v1/operator/me", ops.support!.token);
    expect(after.statusCode).toBe(401);
  });
});
