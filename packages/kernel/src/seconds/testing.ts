// Helpers for the seconds-contract tests: a kernel with a market, a funded user and house, and
// a 30-second product; a checked apply; a purchase.

import { expect } from "vitest";
import { apply } from "../apply.ts";
import { checkInvariants } from "../invariants.ts";
import { getBalance } from "../queries.ts";
import { createKernelState, type KernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { Command, Event } from "../types.ts";
import type { SecondsContractView } from "./types.ts";

export const HOUSE = "system:house";
export const PERIOD = 30_000;

export function run(state: KernelState, command: Command): Event[] {
  const output = apply(state, command);
  expect(output.result, command.type).toMatchObject({ ok: true });
  checkInvariants(state);
  return output.events;
}

export function setup(): { state: KernelState; c: CommandMaker } {
  const state = createKernelState({ demoGrants: [{ assetId: "USDT", amount: "1000" }] });
  const c = new CommandMaker();
  for (const command of [
    c.asset("USDT", 6),
    c.asset("BTC", 8),
    c.market("BTC-USDT", "BTC", "USDT"),
    c.session("BTC-USDT", true),
    c.open("1"),
    c.open("2"),
    c.open("1", "demo"),
    c.deposit("1", "USDT", 1_000_000_000n), // 1,000 USDT
    c.deposit(HOUSE, "USDT", 500_000_000n), // 500 USDT
    c.grant(HOUSE, "USDT", 500_000_000n),
    c.secondsConfigure("BTC-USDT", PERIOD),
    c.tick("BTC-USDT", "30000"),
  ]) {
    run(state, command);
  }
  return { state, c };
}

export const fund = (state: KernelState, owner: string, mode: "real" | "demo" = "real") =>
  getBalance(state, owner, mode, "fund", "USDT");

export function settledOf(events: Event[]): SecondsContractView[] {
  return events.flatMap((e) => (e.type === "seconds_settled" ? [e.contract] : []));
}

/** Buys 100 USDT up (or down) now; returns the contract id and its expiry. */
export function buy(
  state: KernelState,
  c: CommandMaker,
  direction = "up",
  mode: "real" | "demo" = "real",
): { id: string; expiresAtMs: number; openTickId: string } {
  const command = c.secondsPurchase("1", "BTC-USDT", PERIOD, direction, 100_000_000n, mode);
  const events = run(state, command);
  const purchased = events.find((e) => e.type === "seconds_purchased");
  expect(purchased).toBeDefined();
  const contract = (purchased as { contract: SecondsContractView }).contract;
  return { id: command.id, expiresAtMs: contract.expiresAtMs, openTickId: contract.openTickId };
}
