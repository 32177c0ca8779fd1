import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
import { commandsEqual, decodeCommand, encodeCommand, utf8Decode } from "../command-codec.ts";
import { Fingerprinter } from "../fingerprint.ts";
import { getLastTick } from "../queries.ts";
import { createKernelState } from "../state.ts";
import { CommandMaker } from "../testing/commands.ts";
import type { RecordTickCommand } from "./types.ts";

describe("record_tick", () => {
  it("refuses a tick older than the instrument's last one, and keeps the newer", () => {
    const state = createKernelState();
    const c = new CommandMaker();
    const tick = (tickId: string, instrumentId: string, tickAtMs: number): RecordTickCommand => ({
      ...(c.tick(instrumentId, "100") as RecordTickCommand),
      tickId,
      tickAtMs,
    });
    expect(apply(state, tick("a", "BTC", 5_000)).result.ok).toBe(true);
    expect(apply(state, tick("b", "BTC", 4_999)).result).toEqual({
      ok: false,
      code: "tick_out_of_order",
    });
    expect(getLastTick(state, "BTC")?.tickId).toBe("a");
    // The same observation time is not older; another instrument has its own order.
    expect(apply(state, tick("c", "BTC", 5_000)).result.ok).toBe(true);
    expect(apply(state, tick("d", "ETH", 1)).result.ok).toBe(true);
    expect(apply(state, tick("c", "BTC", 6_000)).result).toEqual({
      ok: false,
      code: "tick_exists",
    });
  });
});

describe("record_tick's print size (appended field)", () => {
  const base: RecordTickCommand = {
    type: "record_tick",
    id: "tick:BTC:1",
    atMs: 1_000,
    tickId: "simulated-1000-0",
    instrumentId: "BTC",
    price: "100.5",
    tickAtMs: 1_000,
  };
  const print = (command: RecordTickCommand) => {
    const out = new Int32Array(2);
    new Fingerprinter().fingerprint(command, out);
    return [...out];
  };

  it("reads and writes records from before it existed exactly as before", () => {
    // A record journaled before the field: seven elements.
    const old = '["record_tick","tick:BTC:1",1000,"simulated-1000-0","BTC","100.5",1000]';
    const decoded = decodeCommand(new TextEncoder().encode(old)) as RecordTickCommand;
    expect(decoded).toEqual(base);
    expect("quantity" in decoded).toBe(false);
    expect(utf8Decode(encodeCommand(decoded))).toBe(old);
    expect(utf8Decode(encodeCommand({ ...base, quantity: null }))).toBe(old);
    // Absent and null are the same command, with the fingerprint it always had.
    expect(commandsEqual(base, { ...base, quantity: null })).toBe(true);
    expect(print({ ...base, quantity: null })).toEqual(print(base));
  });

  it("carries the size through the journal encoding; the kernel checks it is a number", () => {
    const sized: RecordTickCommand = { ...base, quantity: "0.0125" };
    const bytes = encodeCommand(sized);
    expect(utf8Decode(bytes)).toBe(
      '["record_tick","tick:BTC:1",1000,"simulated-1000-0","BTC","100.5",1000,"0.0125"]',
    );
    expect(decodeCommand(bytes)).toEqual(sized);
    expect(commandsEqual(sized, base)).toBe(false);
    expect(print(sized)).not.toEqual(print(base));
    const state = createKernelState();
    expect(apply(state, sized).result.ok).toBe(true);
    expect(apply(state, { ...base, id: "t2", tickId: "t2", quantity: "-1" }).result).toEqual({
      ok: false,
      code: "reference_invalid",
    });
    expect(apply(state, { ...base, id: "t3", tickId: "t3", quantity: "x" }).result).toEqual({
      ok: false,
      code: "reference_invalid",
    });
  });
});
