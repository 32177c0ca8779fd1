import { getBalance } from "@candor/kernel";
import { expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { Engine } from "../../engine/engine.ts";
import { kernelPort, type CandorEngine } from "../../engine/kernel-port.ts";
import { accountOpener } from "../../engine/submit.ts";
import { FaultFileSystem } from "../../journal/fault-file-system.ts";
import { openFileJournal } from "../../journal/file-journal.ts";
import { fileSnapshotStore } from "../../journal/snapshot-store.ts";
import { clearReadModels, ReadModelProjector } from "../../read-models/projector.ts";
import { checkReadModels } from "../../read-models/rebuild.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { registerByPhone } from "../../testing/register-phone.ts";

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
  const app = await buildApp({
    database,
    engine,
    operatorToken: token,
    accounts: accountOpener(engine),
    captcha: "off",
    passwordCost: 10,
  });
  const register = async (phone: string): Promise<string> => {
    const response = await registerByPhone(app, phone, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.user.id;
  };
  return { app, engine, projector, register };
}

const post = (body: unknown, auth = `Bearer ${token}`) => ({
  method: "POST" as const,
  url: "/api/v1/operator/deposits",
  headers: { authorization: auth, "content-type": "application/json" },
  payload: JSON.stringify(body),
});

const good = {
  id: "dep-1",
  ownerId: "100001",
  assetId: "USDT",
  amount: "12.5",
  reference: "tx-1",
  reason: "bank transfer received",
};
let phones = 0;
const nextPhone = () => `+491510000${String(++phones).padStart(4, "0")}`;

describeEachDatabase("POST /api/v1/operator/deposits", (database) => {
  it("credits once per id, journals it, and the read models agree with the kernel", async () => {
    const { app, engine, projector, register } = await setup(database());
    const ownerId = await register(nextPhone());
    const first = await app.inject(post({ ...good, ownerId }));
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ duplicate: false, postingSeq: expect.any(Number) });
    const again = await app.inject(post({ ...good, ownerId }));
    expect(again.json().data.duplicate).toBe(true);
    // The same id with different fields is refused, and changes nothing.
    const hash = engine.stateHash();
    const changed = await app.inject(post({ ...good, ownerId, amount: "99" }));
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toMatchObject({
      error: "command_rejected",
      issues: [{ path: "body", message: "command_id_reused" }],
    });
    expect(engine.stateHash()).toBe(hash);
    const balance = engine.query((s) => getBalance(s, ownerId, "real", "fund", "USDT"));
    expect(balance.available).toBe(12_500_000n);
    await projector.flush();
    const differences = await engine.query((s) => checkReadModels(database(), s));
    expect(differences).toEqual([]);
    await app.close();
    await engine.stop();
  });

  it("refuses unauthorised, malformed, negative, over-precise and oversized input and changes nothing", async () => {
    const { app, engine, register } = await setup(database());
    good.ownerId = await register(nextPhone());
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

describeEachDatabase(
  "POST /api/v1/operator/deposits to a user who cannot receive it",
  (database) => {
    // Regression, issue 14 item 4: a deposit to an id nobody holds yet was credited (the operator
    // opened accounts for it), and the next person to register inherited the money.
    it("refuses an unknown, not yet registered or demo-only user, and the next registrant gets nothing", async () => {
      const { app, engine, register } = await setup(database());
      const hash = engine.stateHash();
      const known = await register(nextPhone());
      const hashAfterRegistration = engine.stateHash();
      const nextId = String(BigInt(known) + 1n);
      for (const ownerId of [nextId, "999999999", "1"]) {
        const response = await app.inject(post({ ...good, id: `typo-${ownerId}`, ownerId }));
        expect(response.statusCode, ownerId).toBe(404);
        expect(response.json().error).toBe("user_not_found");
        expect(response.json().message).toMatch(/no user/i);
      }
      const demo = await app.inject({ method: "POST", url: "/api/v1/auth/demo", payload: {} });
      const demoId = demo.json().data.user.id;
      const hashAfterDemo = engine.stateHash();
      const toDemo = await app.inject(post({ ...good, id: "to-demo", ownerId: demoId }));
      expect(toDemo.statusCode).toBe(404);
      expect(toDemo.json().error).toBe("user_not_found");
      expect(engine.stateHash()).toBe(hashAfterDemo);
      expect(hashAfterRegistration).not.toBe(hash);
      const newcomer = await register(nextPhone());
      expect(newcomer).not.toBe(known);
      const inherited = engine.query((s) => getBalance(s, newcomer, "real", "fund", "USDT"));
      expect(inherited.available + inherited.held).toBe(0n);
      await app.close();
      await engine.stop();
    });
  },
);
