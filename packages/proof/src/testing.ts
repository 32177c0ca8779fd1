// Deterministic inputs for tests and the benchmark: salts derived from the user id, so a run is
// reproducible. A real server draws each salt at random (128 bits or more) and keeps it.
import { sha256Hex } from "@candor/kernel/hash/sha256";
import type { LiabilityEntry, TreeInput } from "./tree.ts";

/** A fixed salt for a user id (32 bytes of hex), for tests only. */
export function testSalt(userId: string, seed = 0): string {
  return sha256Hex(`test-salt:${seed}:${userId}`);
}

/** `count` users `user-0`… with values from `valueOf(user, asset)`. */
export function sampleInput(
  count: number,
  assets: readonly string[],
  valueOf: (user: number, asset: number) => bigint,
  bits = 128,
): TreeInput {
  const leaves: LiabilityEntry[] = [];
  for (let user = 0; user < count; user++) {
    const userId = `user-${user}`;
    leaves.push({
      userId,
      salt: testSalt(userId),
      values: assets.map((_, asset) => valueOf(user, asset)),
    });
  }
  return { assets, bits, leaves };
}
