import { describe, expect, it } from "vitest";
import { endpointUrl } from "./api-client.ts";

describe("endpointUrl", () => {
  it("fills path parameters, encoded", () => {
    expect(endpointUrl("/api/v1/notices/:noticeId", { noticeId: "a/b" })).toBe(
      "/api/v1/notices/a%2Fb",
    );
  });

  it("appends defined query values only", () => {
    expect(endpointUrl("/api/v1/x", {}, { limit: 20, q: undefined, cls: "crypto" })).toBe(
      "/api/v1/x?limit=20&cls=crypto",
    );
  });

  it("refuses a missing parameter", () => {
    expect(() => endpointUrl("/api/v1/notices/:noticeId")).toThrow(/noticeId/);
  });
});
