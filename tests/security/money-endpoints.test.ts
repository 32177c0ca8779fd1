// Money endpoints under attack: the hostile-amount catalogue against every amount field of
// every contract endpoint (found by name in the endpoint registry, so a new endpoint with an
// amount is covered at once), parallel double-spend, and the security headers on the answer of
// every endpoint.
import type { EndpointSpec } from "@candor/contract";
import { getBalance } from "@candor/kernel";
import { z } from "zod";
import { afterAll, beforeAll, expect, it } from "vitest";
import { securityHeaders } from "../../apps/server/src/http/security-headers.ts";
import { describeEachDatabase } from "../../apps/server/src/testing/databases.ts";
import {
  concretePath,
  operatorToken,
  startSecurityApp,
  type SecurityApp,
  type SuiteUser,
} from "./security-app.ts";

/** Field names that carry money or quantities: one of their camel-case words says so. */
const amountWords = new Set([
  "amount",
  "quantity",
  "price",
  "total",
  "size",
  "funds",
  "stake",
  "exposure",
]);
const amountField = {
  // Whole words only: `feeBpsTaker` holds "sTake" but is a fee rate in basis points.
  test: (name: string) =>
    name === "collateral" ||
    name.split(/(?=[A-Z])/).some((word) => amountWords.has(word.toLowerCase())),
};

/** Values no amount field may accept: malformed, oversized, negative, over-precise, typed wrong. */
const hostileAmounts: unknown[] = [
  "",
  " ",
  "abc",
  "1e5",
  "1E-2",
  "-1",
  "-0.5",
  "+1",
  "0x10",
  "1,5",
  " 1",
  "1 ",
  "1.",
  ".5",
  "1..2",
  "NaN",
  "Infinity",
  "１",
  "1\u0000",
  "9".repeat(41),
  "1".repeat(200),
  `1.${"0".repeat(29)}1`,
  `0.${"0".repeat(18)}1`,
  1,
  0.1,
  -1,
  null,
  true,
  [],
  {},
  ["1"],
];

/** The amount fields of an endpoint's body, from its contract schema. */
function amountFields(endpoint: EndpointSpec): string[] {
  if (!endpoint.body) return [];
  const schema = z.toJSONSchema(endpoint.body, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, unknown>;
  };
  return Object.keys(schema.properties ?? {}).filter((name) => amountField.test(name));
}

describeEachDatabase("money endpoints", (database) => {
  let suite: SecurityApp;
  let user: SuiteUser;

  beforeAll(async () => {
    // The test clock moves a minute per request (rate limits) — hours in all — so a stock
    // market's session would open or close mid-test (journaled by the stocks' session sync)
    // and change the state it checks; here the sync runs once, at start.
    suite = await startSecurityApp(database(), { stocks: { sessionSyncMs: 0 } });
    user = await suite.register("+4915191000001");
    await suite.credit(user, "USDT", "1000");
  }, 120_000);
  afterAll(() => suite?.close());

  const headersOf = (endpoint: EndpointSpec) =>
    endpoint.auth === "operator"
      ? { authorization: `Bearer ${operatorToken}` }
      : endpoint.auth === "user"
        ? { authorization: `Bearer ${user.token}` }
        : {};

  it("refuses every hostile amount in every amount field, naming the field, and moves nothing", async () => {
    const endpoints = suite.app.endpoints.filter((e) => amountFields(e).length > 0);
    // Deposits, spot orders, withdrawals, demo grants, market-maker funding, ...
    expect(endpoints.length).toBeGreaterThanOrEqual(3);
    expect(endpoints.map((e) => `${e.method} ${e.path}`)).toContain(
      "POST /api/v1/wallet/withdrawals",
    );
    const hash = suite.engine.stateHash();
    for (const endpoint of endpoints) {
      for (const field of amountFields(endpoint)) {
        for (const value of hostileAmounts) {
          suite.tick();
          const response = await suite.app.inject({
            method: endpoint.method,
            url: concretePath(endpoint.path),
            headers: headersOf(endpoint),
            payload: { [field]: value },
          });
          const label = `${endpoint.method} ${endpoint.path} ${field}=${JSON.stringify(value)}`;
          expect(response.statusCode, label).toBe(400);
          expect(response.json().error, label).toBe("validation_failed");
          const paths = response.json().issues.map((i: { path: string }) => i.path);
          expect(paths, label).toContain(`body.${field}`);
        }
      }
    }
    expect(suite.engine.stateHash()).toBe(hash);
  }, 120_000); // ~1,000 requests: 12-18 s alone, over 30 s beside other files under load

  it("100 parallel orders that each need the whole balance: exactly one is accepted", async () => {
    const spender = await suite.register("+4915191000002");
    await suite.credit(spender, "USDT", "100");
    suite.tick();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        suite.app.inject({
          method: "POST",
          url: "/api/v1/spot/orders",
          headers: { authorization: `Bearer ${spender.token}` },
          remoteAddress: `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
          payload: {
            instrumentId: "BTCUSDT",
            side: "buy",
            type: "limit",
            price: "1000",
            quantity: "0.1",
            clientOrderId: crypto.randomUUID(),
            tradePassword: "trade1234",
          },
        }),
      ),
    );
    const accepted = answers.filter((r) => r.statusCode === 200);
    expect(accepted).toHaveLength(1);
    for (const refused of answers.filter((r) => r.statusCode !== 200)) {
      expect(["insufficient_balance", "rate_limited"]).toContain(refused.json().error);
    }
    expect(answers.filter((r) => r.json().error === "insufficient_balance").length).toBeGreaterThan(
      0,
    );
    const balance = suite.engine.query((s) => getBalance(s, spender.id, "real", "fund", "USDT"));
    expect(balance.available + balance.held).toBe(100_000_000n);
    expect(balance.held).toBe(100_000_000n);
  });

  it("every endpoint answers with the security headers, signed in or not", async () => {
    const expected = securityHeaders();
    for (const endpoint of suite.app.endpoints) {
      for (const headers of [{}, headersOf(endpoint)]) {
        suite.tick();
        const response = await suite.app.inject({
          method: endpoint.method,
          url: concretePath(endpoint.path),
          headers,
          ...(endpoint.method === "GET" || endpoint.method === "DELETE" ? {} : { payload: {} }),
        });
        for (const [name, value] of Object.entries(expected)) {
          expect(response.headers[name], `${endpoint.method} ${endpoint.path} ${name}`).toBe(value);
        }
      }
    }
  });
});
