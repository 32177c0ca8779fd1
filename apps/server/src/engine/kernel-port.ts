import {
  apply,
  checkInvariants,
  createKernelState,
  restore,
  type Command,
  type CommandResult,
  type Event,
  type KernelState,
  type ResultOf,
} from "@candor/kernel";
import { createOrderBook } from "@candor/kernel/book/order-book";
import { AssertionError } from "@candor/kernel/assert";
import {
  commandFromJsonArray,
  commandShapeCode,
  commandToJsonArray,
} from "@candor/kernel/command-codec";
import { snapshotJson } from "@candor/kernel/snapshot";
import { hash } from "node:crypto";
import { CompactAnswers } from "./compact-answers.ts";
import type { Applied, Engine, FirstApplication, KernelPort, Unstamped } from "./engine.ts";

/*
 * The kernel is pure TypeScript (its own UTF-8 and SHA-256, so it runs in the browser too). On
 * the server the same bytes and hashes come from Node's native UTF-8 and SHA-256: replay decodes
 * every journal record and hashes the whole state at the end, and the kernel's own versions were
 * 13 % (decode) and 44 % (state hash) of a 20,000-command replay's CPU time. `kernel-port.test.ts`
 * checks that both give identical results.
 */
const utf8Fatal = new TextDecoder("utf-8", { fatal: true });

/** `decodeCommand` with native UTF-8 decoding: throws on invalid UTF-8, as the kernel's does. */
export function decodeCommandNative(bytes: Uint8Array): Command {
  return commandFromJsonArray(JSON.parse(utf8Fatal.decode(bytes)));
}

/**
 * `encodeCommand` with native UTF-8 encoding (lone surrogates become U+FFFD in both): the same
 * bytes, checked the same way; every submitted command is encoded once (W6).
 */
export function encodeCommandNative(command: Command): Uint8Array {
  const code = commandShapeCode(command);
  if (code !== null) throw new AssertionError(`cannot encode a malformed command (${code})`);
  return Buffer.from(JSON.stringify(commandToJsonArray(command)), "utf8");
}

/** `snapshot` with native UTF-8 encoding (lone surrogates become U+FFFD in both). */
export function snapshotNative(state: KernelState): Uint8Array {
  return Buffer.from(JSON.stringify(snapshotJson(state)), "utf8");
}

/**
 * `stateHash` with native SHA-256 over the same canonical snapshot bytes. The one-shot
 * `crypto.hash` encodes the text as UTF-8 and hashes it in one native call (half the time of
 * `createHash().update(text, "utf8")` on the W9 end state's 6.9 MB, which copies the text first).
 */
export function stateHashNative(state: KernelState): string {
  return hash("sha256", JSON.stringify(snapshotJson(state)), "hex");
}

/** The real kernel behind the engine's port: every kernel call the server makes goes here. */
export const kernelPort: KernelPort<KernelState, Command, CommandResult, Event> = {
  // The fast book, named explicitly so the server never depends on a process-wide default.
  createState: () => createKernelState({}, createOrderBook),
  // Two arguments only: a third would be `apply`'s `quiet`.
  apply: (state, command) => apply(state, command),
  // Replay without subscribers: no `balances_changed` views (answers never read them).
  applyQuiet: (state, command) => apply(state, command, true),
  encodeCommand: encodeCommandNative,
  decodeCommand: decodeCommandNative,
  snapshot: snapshotNative,
  restore: (bytes) => restore(bytes, createOrderBook),
  stateHash: stateHashNative,
  checkInvariants,
  clockTick: (id, atMs) => ({ type: "clock_tick", id, atMs }),
  // A user's placed order: what its answer is built from (the accepted order and its fills),
  // so a retry with the same client order id gets the first answer back. System owners (the
  // market maker) never retry through the API and are not kept.
  answerEvents: (command, result, events) => {
    if (command.type === "place_order" && result.ok && !command.ownerId.startsWith("system:")) {
      return events.filter((e) => e.type === "order_accepted" || e.type === "fill");
    }
    // A retried quote or accept is answered with the quote it made or executed.
    if ((command.type === "exchange_quote" || command.type === "exchange_accept") && result.ok) {
      return events.filter((e) => e.type === "exchange_quoted" || e.type === "exchange_executed");
    }
    // A retried seconds purchase is answered with the contract it bought.
    if (command.type === "seconds_purchase" && result.ok) {
      return events.filter((e) => e.type === "seconds_purchased");
    }
    // A retried savings subscription is answered with the subscription it made.
    if (command.type === "savings_subscribe" && result.ok) {
      return events.filter((e) => e.type === "savings_subscribed");
    }
    // A retried stock order is answered with the order it placed and its fill.
    if (command.type === "stock_place_order" && result.ok) {
      return events.filter(
        (e) => e.type === "stock_order_placed" || e.type === "stock_order_filled",
      );
    }
    return undefined;
  },
  idempotencyWindowMs: (state) => state.options.idempotencyWindowMs,
  // Replayed user orders' answers as record bytes and numbers, rebuilt on a retry.
  answerMemory: () => new CompactAnswers(decodeCommandNative),
  // The last recorded tick of each instrument: the previous trade of its next public trade.
  sequenceKey: (command, result) =>
    command.type === "record_tick" && result.ok ? tapeSequenceKey(command.instrumentId) : undefined,
};

/** The `Engine.lastSequenceOf` key of an instrument's last recorded tick (`record_tick`). */
export function tapeSequenceKey(instrumentId: string): string {
  return `tick:${instrumentId}`;
}

/** The server's engine: the kernel's state, commands, results and events. */
export type CandorEngine = Engine<KernelState, Command, CommandResult, Event>;
/** A command as the server submits it (the engine stamps `atMs`). */
export type CandorCommand = Unstamped<Command>;
/** One applied command on the events bus. */
export type CandorApplied = Applied<Command, CommandResult, Event>;
/** A command's first application, as `CandorEngine.recall` keeps it. */
export type CandorFirst = FirstApplication<Command, CommandResult, Event>;
/**
 * The engine's answer to a command `C` the caller submitted, with the result of that command's
 * type (`ResultOf<C>`: an `OrderOutcome` for place_order, a `postingSeq` for a deposit, …).
 */
export type Submitted<C extends CandorCommand> = Omit<CandorApplied, "result"> & {
  result: ResultOf<C>;
};
