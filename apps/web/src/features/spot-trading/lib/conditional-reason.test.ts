import { describe, expect, it } from "vitest";
import { conditionalReason } from "./conditional-reason.ts";

const exists = (key: string) => key === "errors.insufficient_balance";

describe("why a conditional order ended", () => {
  it("names the refusal of the order it placed in words, or by its code when it has no text", () => {
    expect(
      conditionalReason(
        { status: "rejected", reason: null, rejectCode: "insufficient_balance" },
        exists,
      ),
    ).toEqual({ key: "errors.insufficient_balance" });
    expect(
      conditionalReason({ status: "rejected", reason: null, rejectCode: "no_text_code" }, exists),
    ).toEqual({ code: "no_text_code" });
  });

  it("names who cancelled it", () => {
    for (const reason of ["user", "cancel_all", "oco", "demo_reset"]) {
      expect(conditionalReason({ status: "cancelled", reason, rejectCode: null }, exists)).toEqual({
        key: `coinCoin.order.cancelReason.${reason}`,
      });
    }
  });

  it("says nothing while it waits, once it fired, or for a reason it does not know", () => {
    expect(conditionalReason({ status: "pending", reason: null, rejectCode: null })).toBeNull();
    expect(conditionalReason({ status: "triggered", reason: null, rejectCode: null })).toBeNull();
    expect(
      conditionalReason({ status: "cancelled", reason: "something_new", rejectCode: null }),
    ).toBeNull();
  });
});
