import { describe, expect, it } from "vitest";
import { z } from "zod";
import { decimalString, defineEndpoint } from "./endpoint.ts";

describe("defineEndpoint", () => {
  it("refuses paths outside /api and GET endpoints with a body", () => {
    const base = { summary: "x", tag: "t", auth: "none", response: z.object({}) } as const;
    expect(() => defineEndpoint({ ...base, method: "GET", path: "/v1/x" })).toThrow(/\/api\//);
    expect(() =>
      defineEndpoint({ ...base, method: "GET", path: "/api/v1/x", body: z.object({}) }),
    ).toThrow(/cannot have a body/);
  });
});

describe("decimalString", () => {
  const amount = decimalString(2, { positive: true });
  it.each(["1", "0.01", "12.50", "999999"])("accepts %s", (value) => {
    expect(amount.safeParse(value).success).toBe(true);
  });
  it.each(["", "-1", "1.234", "1e5", "0x10", " 1", "0", "0.00", "1.", ".5", "1".repeat(41)])(
    "rejects %j",
    (value) => {
      expect(amount.safeParse(value).success).toBe(false);
    },
  );
});
