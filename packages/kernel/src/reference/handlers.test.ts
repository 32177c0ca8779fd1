import { describe, expect, it } from "vitest";
import { apply } from "../apply.ts";
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
