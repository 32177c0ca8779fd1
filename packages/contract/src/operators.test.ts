import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as contract from "./index.ts";
import type { EndpointSpec } from "./endpoint.ts";

const endpoints = (Object.values(contract) as unknown[]).filter(
  (value): value is EndpointSpec =>
    typeof value === "object" && value !== null && "auth" in value && "path" in value,
);

/** Operator endpoints that change something yet take no reason, and why. */
const withoutReason: Record<string, string> = {
  "POST /api/v1/operator/bootstrap": "the bootstrap itself: audited with a fixed reason",
  "POST /api/v1/operator/sign-out": "ends the caller's own session",
  "POST /api/v1/operator/uploads":
    "a multipart image, private until a banner or a support answer uses it: the publication or the answer gives the reason",
};

describe("operator reasons (issue 17)", () => {
  it("every mutating operator endpoint requires a reason in its body", () => {
    const mutating = endpoints.filter((e) => e.auth === "operator" && e.method !== "GET");
    expect(mutating.length).toBeGreaterThan(20);
    const missing = mutating
      .filter((e) => !(`${e.method} ${e.path}` in withoutReason))
      .filter((e) => {
        // A union of bodies (one per kind of change) needs the reason in every option.
        const bodies = e.body instanceof z.ZodUnion ? e.body.options : [e.body];
        return bodies.some((body) => {
          if (!(body instanceof z.ZodObject)) return true;
          const reason = (body.shape as Record<string, z.ZodType>).reason;
          return reason === undefined || reason.safeParse(undefined).success;
        });
      })
      .map((e) => `${e.method} ${e.path}`);
    expect(missing).toEqual([]);
  });

  it("a reason is 3 to 500 characters after trimming", () => {
    expect(contract.OperatorReason.safeParse("ok").success).toBe(false);
    expect(contract.OperatorReason.safeParse("   ab   ").success).toBe(false);
    expect(contract.OperatorReason.safeParse("fraud report").success).toBe(true);
    expect(contract.OperatorReason.safeParse("x".repeat(501)).success).toBe(false);
  });
});
