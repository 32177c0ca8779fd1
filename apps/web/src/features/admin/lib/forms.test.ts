import { describe, expect, it } from "vitest";
import {
  approvalOperatorIds,
  isBannerLink,
  isAmountOrZero,
  isPositiveAmount,
  isReason,
  isTxHash,
  mayApprove,
  readInteger,
} from "./forms.ts";
import { menuFor } from "./operator-session.ts";
import { parseOperatorSession } from "./operator-session.ts";

describe("back-office form rules", () => {
  it("asks for a reason of 3 to 500 characters", () => {
    expect(isReason("  ok ")).toBe(false);
    expect(isReason("documents checked")).toBe(true);
    expect(isReason("x".repeat(500))).toBe(true);
    expect(isReason("x".repeat(501))).toBe(false);
  });

  it("reads amounts with the decimal codec, never as floats", () => {
    expect(isPositiveAmount("12.5")).toBe(true);
    expect(isPositiveAmount("0.000000000000000001")).toBe(true);
    expect(isPositiveAmount("0.0000000000000000001")).toBe(false);
    expect(isPositiveAmount("0")).toBe(false);
    expect(isPositiveAmount("-1")).toBe(false);
    expect(isPositiveAmount("1e3")).toBe(false);
    expect(isAmountOrZero("0")).toBe(true);
    expect(isAmountOrZero("0.5")).toBe(true);
    expect(isAmountOrZero("-0.5")).toBe(false);
    expect(isAmountOrZero("")).toBe(false);
    expect(isPositiveAmount("1.5", 0)).toBe(false);
  });

  it("checks transaction hashes and whole numbers", () => {
    expect(isTxHash(`0x${"ab".repeat(32)}`)).toBe(true);
    expect(isTxHash(`0x${"ab".repeat(31)}`)).toBe(false);
    expect(readInteger("8500", 1, 20000)).toBe(8500);
    expect(readInteger("8.5", 1, 20000)).toBeNull();
    expect(readInteger("0", 1, 20000)).toBeNull();
  });
});

describe("withdrawal approvals", () => {
  const pending = {
    status: "pending",
    approvals: 1,
    approvalsRequired: 2,
    steps: [
      { status: "requested", operatorId: null },
      { status: "approved", operatorId: "7" },
    ],
  };

  it("lists who approved so far", () => {
    expect(approvalOperatorIds(pending.steps)).toEqual(["7"]);
  });

  it("lets a second, different operator co-approve, not the first again", () => {
    expect(mayApprove(pending, "7")).toBe(false);
    expect(mayApprove(pending, "8")).toBe(true);
    expect(mayApprove({ ...pending, approvals: 2 }, "8")).toBe(false);
    expect(mayApprove({ ...pending, status: "approved" }, "8")).toBe(false);
  });
});

describe("operator session", () => {
  const session = {
    token: "t",
    expiresAt: "2030-01-01T00:00:00.000Z",
    operator: { id: "1", email: "a@example.com", displayName: "A", role: "admin" },
  };

  it("keeps a stored session until it expires", () => {
    expect(parseOperatorSession(JSON.stringify(session), Date.parse("2029-01-01"))).toEqual(
      session,
    );
    expect(parseOperatorSession(JSON.stringify(session), Date.parse("2031-01-01"))).toBeNull();
    expect(parseOperatorSession("{", 0)).toBeNull();
    expect(parseOperatorSession(null, 0)).toBeNull();
  });

  it("shows each role its pages only", () => {
    expect(menuFor("admin")).toContain("operators");
    expect(menuFor("support")).not.toContain("funding");
    expect(menuFor("compliance")).toContain("identity");
    expect(menuFor("finance")).not.toContain("identity");
  });
});

describe("product configuration forms", () => {
  it("reads the operator's text into a body without floats", async () => {
    const { readConfig, secondsFields, configValuesOf } = await import("./config-form.ts");
    const values = configValuesOf(secondsFields, {
      instrumentId: "BTC-USDT",
      periodS: 60,
      asset: "USDT",
      payoutBps: 8500,
      stakeMin: "1",
      stakeMax: "1000.5",
      graceS: 30,
      open: true,
    });
    expect(values.periodS).toBe("60");
    expect(readConfig(secondsFields, values)).toEqual({ ok: false, invalid: ["exposureMax"] });
    const answer = readConfig(secondsFields, { ...values, exposureMax: "0" });
    expect(answer).toEqual({
      ok: true,
      body: {
        instrumentId: "BTC-USDT",
        periodS: 60,
        asset: "USDT",
        payoutBps: 8500,
        stakeMin: "1",
        stakeMax: "1000.5",
        exposureMax: "0",
        graceS: 30,
        open: true,
      },
    });
    expect(readConfig(secondsFields, { ...values, exposureMax: "0", payoutBps: "85.5" })).toEqual({
      ok: false,
      invalid: ["payoutBps"],
    });
  });
});

describe("product configuration and content forms", () => {
  it("offers the markets and programmes pages to every role (edits are decided by the server)", () => {
    for (const role of ["support", "compliance", "finance", "admin"] as const) {
      expect(menuFor(role)).toContain("markets");
      expect(menuFor(role)).toContain("programmes");
    }
  });

  it("accepts banner links to app routes and https pages only", () => {
    expect(isBannerLink("")).toBe(true);
    expect(isBannerLink("#/savings")).toBe(true);
    expect(isBannerLink("https://example.com/x?y=1")).toBe(true);
    expect(isBannerLink("javascript:alert(1)")).toBe(false);
    expect(isBannerLink("http://example.com")).toBe(false);
    expect(isBannerLink('#/x" onclick="y')).toBe(false);
  });
});
