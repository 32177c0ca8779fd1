// The registry: every module of the kernel, in the order their hooks run. Adding a product is
// one folder and one line here (see README.md, "How to add a product").
//
// Hook order, fixed by this list: the ledger, the schedule, the reference data, then the
// products. `record_tick` calls `onTick` of each module after the reference data recorded the
// tick; `clock_tick` runs the due scheduled entries (due time, then scheduling order), then
// `onClock` of each module; `reset_demo` calls `onDemoReset` of each module before returning
// the owner's balances to the faucet; invariants run ledger balances first, then each module's
// `checkInvariants`, then the ledger's hold check; snapshots write and restore sections in this
// order (the ledger's owners and accounts exist before products restore what refers to them).

import { assert } from "./assert.ts";
import { fundsModule } from "./funds/module.ts";
import { ledgerModule } from "./ledger/module.ts";
import { loansModule } from "./loans/module.ts";
import type { CommandCodecEntry, Handler, KernelModule } from "./module.ts";
import { perpModule } from "./perp/module.ts";
import { referenceModule } from "./reference/module.ts";
import { referralModule } from "./referral/module.ts";
import { scheduleModule } from "./schedule.ts";
import { savingsModule } from "./savings/module.ts";
import { secondsModule } from "./seconds/module.ts";
import { spotModule } from "./spot/module.ts";
import { stocksModule } from "./stocks/module.ts";
import { vipModule } from "./vip/module.ts";
import { activityModule } from "./activity/module.ts";
import { agentModule } from "./agent/module.ts";
import type { CommandType } from "./types.ts";

const modules = [
  ledgerModule,
  scheduleModule,
  referenceModule,
  fundsModule,
  spotModule,
  perpModule,
  secondsModule,
  savingsModule,
  stocksModule,
  loansModule,
  referralModule,
  vipModule,
  activityModule,
  agentModule,
] as const;

/** Every module, in hook order. */
export const kernelModules: readonly KernelModule[] = Object.freeze([...modules]);

type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (
  arg: infer I,
) => void
  ? I
  : never;
type Part<M, Key extends string> = M extends { [K in Key]: infer P } ? P : never;
type Merged<Key extends string> = UnionToIntersection<Part<(typeof modules)[number], Key>>;

function merge<T>(key: "handlers" | "commands"): T {
  const table: Record<string, unknown> = {};
  for (const module of kernelModules) {
    for (const [type, entry] of Object.entries(module[key] ?? {})) {
      assert(!Object.hasOwn(table, type), `two modules claim the command type ${type}`);
      table[type] = entry;
    }
  }
  return Object.freeze(table) as T;
}

/**
 * The handler of every command type. Typed from the modules' own handler tables, so a command
 * type without a handler (or with one of the wrong type) does not compile.
 */
export const handlers: { readonly [K in CommandType]: Handler<K> } =
  merge<Merged<"handlers">>("handlers");

/** The codec entry of every command type; a command type without one does not compile. */
export const commandCodecs: { readonly [K in CommandType]: CommandCodecEntry } =
  merge<Merged<"commands">>("commands");

/** Command types by their stable type code (see `CommandCodecEntry.typeCode`). */
export const commandTypesByCode: readonly CommandType[] = (() => {
  const byCode: CommandType[] = [];
  for (const type of Object.keys(commandCodecs) as CommandType[]) {
    const code = commandCodecs[type].typeCode;
    assert(Number.isInteger(code) && code >= 0 && code < 256, `bad type code of ${type}`);
    assert(byCode[code] === undefined, `two command types share type code ${code}`);
    byCode[code] = type;
  }
  return Object.freeze(byCode);
})();
