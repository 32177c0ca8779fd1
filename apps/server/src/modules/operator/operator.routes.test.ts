import { getBalance } from "@candor/kernel";
import { expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { Engine } from "../../engine/engine.ts";
import { kernelPort, type CandorEngine } from "../../engine/kernel-port.ts";
import { FaultFileSystem } from "../../journal/fault-file-system.ts";
import { openFileJournal } from "../../journal/file-journal.ts";
import { fileSnapshotStore } from "../../journal/snapshot-store.ts";
import { clearReadModels, ReadModelProjector } from "../../read-models/projector.ts";
import { checkReadModels } from "../../read-models/rebuild.ts";
import { describeEachDatabase } from "../../testing/databases.ts";

const token = "operator-token-for-tests";

async function setup(database: Parameters<typeof buildApp>[0]["database"]) {
  const fileSystem = new FaultFileSystem();
  const journal = await openFileJournal({ directory: "/j", onFatal: () => {}, fileSystem });
  const engine: CandorEngine = new Engine({
    kernel: kernelPort,
    journal,
    snapshots: fileSnapshotStore({ directory: "/s", fileSystem }),
    clockTickMs: 0,
    snapshotEvery: 0,
  });
  await clearReadModels(database);
  const projector = new ReadModelProjector(database);
  await projector.load();
  engine.subscribe((applied) => projector.handle(applied));
  await engine.start();
  await engine.submit({
    type: "define_asset",
    id: "a",
    assetId: "USDT",
    scale: 6,
    amountMax: null,
  });
  const app = await buildApp({ database, engine, operatorToken: token });
  return { app, engine, projector };
}

const post = (body: unknown, auth = `Bearer ${token}`) => ({
  method: "POST" as const,
  url: "/api/v1/operator/deposits",
  headers: { authorization: auth, "content-type": "application/json" },
  payload: JSON.stringify(body),
});

const good = { id: "dep-1", ownerId: "100001", assetId: "USDT", amount: "12.5", reference: "tx-1" };

describeEachDatabase("POST /api/v1/operator/deposits", (database) => {
  it("credits once per id, journals it, and the read models agree with the kernel", async () => {
    const { app, engine, projector } = await setup(database());
    const first = await app.inject(post(good));
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ duplicate: false, postingSeq: 1 });
    const again = await app.inject(post(good));
    expect(again.json().data.duplicate).toBe(true);
    const balance = engine.query((s) => getBalance(s, "100001", "real", "fund", "USDT"));
    expect(balance.available).toBe(12_500_000n);
    await projector.flush();
    const differences = await engine.query((s) => checkReadModels(database(), s));
    expect(differences).toEqual([]);
    await app.close();
    await engine.stop();
  });

  it("refuses unauthorised, malformed, negative, over-precise and oversized input and changes nothing", async () => {
    const { app, engine } = await setup(database());
    const hash = engine.stateHash();
    expect((await app.inject(post(good, "Bearer wrong-token-wrong-token"))).statusCode).toBe(401);
    expect((await app.inject(post(good, ""))).statusCode).toBe(401);
    for (const body of [
      { ...good, amount: "-1" },
      { ...good, amount: "abc" },
      { ...good, amount: "0" },
      { ...good, ownerId: "alice" },
      { ...good, id: "" },
      { ...good, reference: "x".repeat(201) },
      { ...good, extra: true },
      { ...good, amount: "1".repeat(50) },
    ]) {
      const response = await app.inject(post(body));
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toBe("validation_failed");
    }
    const precise = await app.inject(post({ ...good, id: "dep-2", amount: "1.0000001" }));
    expect(precise.statusCode).toBe(422);
    expect(precise.json().error).toBe("command_rejected");
    const unknownAsset = await app.inject(post({ ...good, id: "dep-3", assetId: "XYZ" }));
    expect(unknownAsset.statusCode).toBe(422);
    const oversized = await app.inject(post({ ...good, reference: "y".repeat(3_000) }));
    expect(oversized.statusCode).toBe(413);
    const german = await app.inject({
      ...post({ ...good, amount: "-1" }),
      url: "/api/v1/operator/deposits?lang=de",
    });
    expect(german.json().message).not.toBe(
      (await app.inject(post({ ...good, amount: "-1" }))).json().message,
    );
    expect(engine.stateHash()).toBe(hash);
    await app.close();
    await engine.stop();
  });
});
