// getLiabilities: what the proof of liabilities is built from.
import { describe, expect, it } from "vitest";
import { createOrderBook } from "./book/order-book.ts";
import { apply, createKernelState, getBalances, type Command } from "./index.ts";
import { getLiabilities, getSystemBalances } from "./queries.ts";
import { Random } from "./testing/simulate.ts";
import { CommandMaker } from "./testing/commands.ts";

function run(commands: Command[]) {
  const state = createKernelState({}, createOrderBook);
  for (const command of commands) apply(state, command);
  return state;
}

describe("getLiabilities", () => {
  it("sums available and held per asset for users only, in one mode", () => {
    const make = new CommandMaker();
    const state = run([
      make.asset("BTC", 8),
      make.asset("USDT", 6),
      make.asset("ETH", 18),
      make.market("BTC-USDT", "BTC", "USDT", { feeBpsMaker: 0, feeBpsTaker: 0 }),
      make.session("BTC-USDT", true),
      make.open("2"),
      make.open("1"),
      make.open("3"),
      make.open("9", "demo"),
      make.deposit("1", "USDT", 50_000n),
      make.deposit("2", "BTC", 300_000n),
      make.grant("9", "USDT", 7_000n),
      // 1 holds 2 lots at 100 ticks = 2,000 USDT units; it stays a liability.
      make.limit("1", "BTC-USDT", "buy", 100, 2),
    ]);
    const real = getLiabilities(state, "real");
    expect(real.assets).toEqual(["BTC", "ETH", "USDT"]);
    expect(real.owners).toEqual([
      { ownerId: "1", values: [0n, 0n, 50_000n] },
      { ownerId: "2", values: [300_000n, 0n, 0n] },
      { ownerId: "3", values: [0n, 0n, 0n] },
    ]);
    const usdt = getBalances(state, "1", "real").find((b) => b.assetId === "USDT")!;
    expect(usdt.held).toBe(2_000n);
    // Demo accounts open with the faucet's grant; the extra grant adds to it.
    const demoUsdt = getBalances(state, "9", "demo").find((b) => b.assetId === "USDT")!;
    expect(demoUsdt.available).toBeGreaterThan(7_000n);
    expect(getLiabilities(state, "demo").owners).toEqual([
      { ownerId: "9", values: [0n, 0n, demoUsdt.available] },
    ]);
  });

  it("equals what came in from outside minus what system accounts hold, after random trading", () => {
    const make = new CommandMaker();
    const random = new Random(24);
    const commands: Command[] = [
      make.asset("BTC", 8),
      make.asset("USDT", 6),
      make.market("BTC-USDT", "BTC", "USDT"),
      make.session("BTC-USDT", true),
    ];
    const users = ["1", "2", "3", "4", "5"];
    for (const user of users) {
      commands.push(make.open(user), make.deposit(user, "BTC", 10_000_000n));
      commands.push(make.deposit(user, "USDT", 10_000_000n));
    }
    for (let i = 0; i < 400; i++) {
      const user = random.pick(users);
      const side = random.chance(0.5) ? "buy" : "sell";
      commands.push(make.limit(user, "BTC-USDT", side, random.int(95, 105), random.int(1, 5)));
    }
    const state = run(commands);
    const liabilities = getLiabilities(state, "real");
    const system = new Map<string, bigint>();
    const fees = new Map<string, bigint>();
    for (const account of state.ledger.accounts.values()) {
      if (account.mode !== "real" || !account.ownerId.startsWith("system:")) continue;
      system.set(account.assetId, (system.get(account.assetId) ?? 0n) + account.available);
      if (account.ownerId === "system:fees") fees.set(account.assetId, account.available);
    }
    for (const [i, assetId] of liabilities.assets.entries()) {
      const owed = liabilities.owners.reduce((sum, owner) => sum + owner.values[i]!, 0n);
      // Double entry: users' balances and system balances (external negative) sum to zero.
      expect(owed + (system.get(assetId) ?? 0n)).toBe(0n);
      // What users do not own any more went to the fee account.
      expect(owed + (fees.get(assetId) ?? 0n)).toBe(50_000_000n);
      expect(fees.get(assetId)).toBeGreaterThan(0n);
    }
    // The same system accounts, as the transparency page lists them (zero balances left out).
    const listed = getSystemBalances(state, "real");
    expect(listed.every((row) => row.ownerId.startsWith("system:") && row.amount !== 0n)).toBe(
      true,
    );
    for (const [assetId, total] of system) {
      const sum = listed.filter((r) => r.assetId === assetId).reduce((s, r) => s + r.amount, 0n);
      expect(sum).toBe(total);
    }
  });
});
