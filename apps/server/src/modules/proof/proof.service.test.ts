import { createKernelState } from "@candor/kernel";
import type { RootJson } from "@candor/proof";
import { describe, expect, it } from "vitest";
import { ProofService } from "./proof.service.ts";
import type { TreeBuilder } from "./tree-builder.ts";

/** A builder whose builds finish when the test says so, recording the sequence each one read. */
function gatedBuilder() {
  const builds: { sequence: bigint; finish: () => void }[] = [];
  const builder: TreeBuilder = {
    build: (input) =>
      new Promise<RootJson>((resolve) => {
        builds.push({
          sequence: input.sequence,
          finish: () =>
            resolve({ hash: `root-${input.sequence}`, assets: [] } as unknown as RootJson),
        });
      }),
    proof: async () => null,
    close: async () => undefined,
  };
  return { builder, builds };
}

describe("proof publication", () => {
  it("shares a running build only with calls that state already holds", async () => {
    const state = createKernelState();
    const engine = { sequence: 10n, query: <T>(fn: (s: typeof state) => T) => fn(state) };
    const inserted: bigint[] = [];
    const repository = {
      secret: async () => "secret",
      insert: async (row: { sequence: bigint }) => void inserted.push(row.sequence),
      latest: async () => [],
      spotTradingChanges: async () => [],
      systemBalancesAt: async () => [],
    };
    const { builder, builds } = gatedBuilder();
    const service = new ProofService(repository, engine, builder, () => 0);
    const tick = () => new Promise((resolve) => setImmediate(resolve));

    const first = service.publish();
    const same = service.publish();
    expect(same).toBe(first);
    await tick();
    expect(builds.map((b) => b.sequence)).toEqual([10n]);

    // A change lands while the first build runs: a call after it waits for a build of its own,
    // one build shared by every such call.
    engine.sequence = 11n;
    const later = service.publish();
    const laterToo = service.publish();
    expect(laterToo).toBe(later);
    engine.sequence = 12n;
    await tick();
    expect(builds).toHaveLength(1);
    builds[0]!.finish();
    expect((await first).sequence).toBe("10");
    await tick();
    expect(builds.map((b) => b.sequence)).toEqual([10n, 12n]);
    builds[1]!.finish();
    expect((await later).sequence).toBe("12");
    expect(inserted).toEqual([10n, 12n]);

    // Nothing running: a call starts a build at once.
    const next = service.publish();
    await tick();
    expect(builds.map((b) => b.sequence)).toEqual([10n, 12n, 12n]);
    builds[2]!.finish();
    expect((await next).sequence).toBe("12");
  });
});
