import {
  apply,
  checkInvariants,
  createKernelState,
  decodeCommand,
  encodeCommand,
  restore,
  snapshot,
  stateHash,
  type Command,
  type CommandResult,
  type Event,
  type KernelState,
  type ResultOf,
} from "@candor/kernel";
import { createOrderBook } from "@candor/kernel/book/order-book";
import type { Applied, Engine, FirstApplication, KernelPort, Unstamped } from "./engine.ts";

/** The real kernel behind the engine's port: every kernel call the server makes goes here. */
export const kernelPort: KernelPort<KernelState, Command, CommandResult, Event> = {
  // The fast book, named explicitly so the server never depends on a process-wide default.
  createState: () => createKernelState({}, createOrderBook),
  apply,
  encodeCommand,
  decodeCommand,
  snapshot,
  restore: (bytes) => restore(bytes, createOrderBook),
  stateHash,
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
};

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
