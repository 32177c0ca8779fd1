import { describe, expect, it } from "vitest";
import { cleanUserAgent, sessionIdOf } from "../auth/session-directory.ts";
import { tierCovers } from "./identity.service.ts";

describe("identity tiers", () => {
  it("advanced covers basic, nothing covers what was not passed", () => {
    expect(tierCovers("advanced", "basic")).toBe(true);
    expect(tierCovers("advanced", "advanced")).toBe(true);
    expect(tierCovers("basic", "basic")).toBe(true);
    expect(tierCovers("basic", "advanced")).toBe(false);
    expect(tierCovers(null, "basic")).toBe(false);
  });
});

describe("session descriptions", () => {
  it("keeps printable User-Agent text only, at most 200 characters", () => {
    expect(cleanUserAgent(undefined)).toBeNull();
    expect(cleanUserAgent("   ")).toBeNull();
    expect(cleanUserAgent("Mozilla/5.0\u0000\n<script>\u202e")).toBe("Mozilla/5.0<script>");
    expect(cleanUserAgent("x".repeat(500))).toHaveLength(200);
  });

  it("names a session by a prefix of its token hash", () => {
    expect(sessionIdOf("a".repeat(64))).toBe("a".repeat(24));
  });
});
