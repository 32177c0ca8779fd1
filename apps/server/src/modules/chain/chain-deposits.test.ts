import { randomBytes } from "node:crypto";
import { getBalance, type Command } from "@candor/kernel";
import { instruments } from "@candor/market";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { generatePrivateKey, HDKey, privateKeyToAddress } from "viem/accounts";
import { bytesToHex, type Hex } from "viem";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import type { Unstamped } from "../../engine/engine.ts";
import { accountOpener } from "../../engine/submit.ts";
import { describeEachDatabase } from "../../testing/databases.ts";
import { registerByPhone } from "../../testing/register-phone.ts";
import { spotSetupCommands } from "../market/spot-markets.ts";
import { startTestEngine } from "../spot/spot.testing.ts";
import { EvmChainAdapter } from "./chain-adapter.ts";
import { ChainDeposits, type ChainNetworkConfig } from "./chain-deposits.ts";
import { ChainRepository } from "./chain.repository.ts";
import type { ChainWithdrawals } from "./chain-withdrawals.ts";
import { LocalChain, localChainId } from "./local/local-chain.ts";
import { operatorPayload } from "../../testing/operator-reason.ts";

// Crypto deposits on the in-process chain through HTTP and the real kernel: credited once after
// the confirmations, across a restart, never for another token, an unknown address or a
// transfer a reorganisation removed.

const token = (whole: number) => BigInt(whole) * 1_000_000n;

describeEachDatabase("chain deposits", (database) => {
  const nowMs = Date.parse("2026-11-27T01:00:00Z");
  let app: FastifyInstance;
  let running: Awaited<ReturnType<typeof startTestEngine>>;
  let chain: LocalChain;
  let net: ChainNetworkConfig;
  let watcher: ChainDeposits;
  let payouts: ChainWithdrawals;
  const hotKey = generatePrivateKey();
  const root = HDKey.fromMasterSeed(randomBytes(32));
  const users: Record<string, { token: string; id: string; address?: Hex }> = {};
  let ip = 1;

  const call = (url: string, user: string, lang?: string) =>
    app.inject({
      method: "GET",
      url,
      remoteAddress: `10.4.0.${ip++ % 250}`,
      headers: {
        authorization: `Bearer ${users[user]!.token}`,
        ...(lang ? { "x-lang": lang } : {}),
      },
    });
  const balance = (user: string) =>
    running.engine.query((s) => getBalance(s, users[user]!.id, "real", "fund", "USDT").available);
  const deposits = async (user: string) => {
    const response = await call("/api/v1/wallet/chain-deposits", user);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.items as { state: string; amount: string; txHash: string }[];
  };
  const flushReadModels = () => new Promise((resolve) => setTimeout(resolve, 50));

  beforeAll(async () => {
    running = await startTestEngine(database(), () => nowMs);
    for (const command of spotSetupCommands(instruments)) {
      const applied = await running.engine.submit(command as Unstamped<Command>);
      expect(applied.result.ok).toBe(true);
    }
    chain = await LocalChain.start({ faucetKey: generatePrivateKey(), fundedKeys: [hotKey] });
    await chain.mint(privateKeyToAddress(hotKey), token(1_000_000));
    net = {
      network: "ethereum",
      adapter: new EvmChainAdapter(localChainId, chain),
      token: chain.token,
      tokenDecimals: 6,
      assetId: "USDT",
      confirmations: 3,
      minimum: "10",
      testChain: true,
    };
    app = await buildApp({
      database: database(),
      now: () => nowMs,
      passwordCost: 10,
      captcha: "off",
      operatorToken: "operator-token",
      engine: running.engine,
      accounts: accountOpener(running.engine),
      chain: {
        xpub: root.publicExtendedKey,
        networks: [net],
        pollMs: 0,
        hotKey,
        onDeposits: (d) => (watcher = d),
        onPayouts: (p) => (payouts = p),
      },
      withdrawAddressLockMs: 0,
    });
    for (const [name, phone] of [
      ["a", "+4915100000031"],
      ["b", "+4915100000032"],
    ] as const) {
      const registered = await registerByPhone(app, phone, "operator-token");
      expect(registered.statusCode, registered.body).toBe(200);
      users[name] = { token: registered.json().data.token, id: registered.json().data.user.id };
    }
    const demo = await app.inject({ method: "POST", url: "/api/v1/auth/demo", payload: {} });
    users.demo = { token: demo.json().data.token, id: demo.json().data.user.id };
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await running?.close();
  });

  it("gives each real user their own address, derived from the operator's xpub", async () => {
    for (const name of ["a", "b"]) {
      const response = await call("/api/v1/wallet/deposit-addresses", name);
      expect(response.statusCode, response.body).toBe(200);
      const [item] = response.json().data.items;
      expect(item).toMatchObject({
        network: "ethereum",
        chainId: localChainId,
        testChain: true,
        asset: "USDT",
        minimum: "10",
        confirmations: 3,
      });
      // The operator's custody (the private root) controls the address; the server only the xpub.
      const child = root.deriveChild(Number(users[name]!.id));
      expect(item.address).toBe(privateKeyToAddress(bytesToHex(child.privateKey!)));
      users[name]!.address = item.address;
    }
    expect(users.a!.address).not.toBe(users.b!.address);
  });

  it("refuses demo accounts (two languages)", async () => {
    const english = await call("/api/v1/wallet/deposit-addresses", "demo");
    expect(english.statusCode).toBe(403);
    expect(english.json().error).toBe("demo_deposit_not_allowed");
    const german = await call("/api/v1/wallet/chain-deposits", "demo", "de");
    expect(german.statusCode).toBe(403);
    expect(german.json().message).not.toBe(english.json().message);
  });

  it("credits after the confirmations, exactly once", async () => {
    await chain.mint(users.a!.address!, token(150));
    await watcher.pollAll();
    expect(await deposits("a")).toMatchObject([{ state: "confirming", amount: "150" }]);
    const [first] = (await call("/api/v1/wallet/chain-deposits", "a")).json().data.items;
    expect(first).toMatchObject({ confirmations: 1, confirmationsRequired: 3 });
    expect(balance("a")).toBe(0n);
    await chain.mine(1);
    await watcher.pollAll();
    expect(balance("a")).toBe(0n);
    await chain.mine(1);
    await watcher.pollAll();
    await watcher.pollAll();
    expect(await deposits("a")).toMatchObject([{ state: "credited", amount: "150" }]);
    const credited = balance("a");
    expect(credited).toBeGreaterThan(0n);
    await chain.mine(5);
    await watcher.pollAll();
    expect(balance("a")).toBe(credited);
  });

  it("ignores another token, an unknown address, and records what is below the minimum", async () => {
    const before = balance("a");
    const other = await chain.deployOtherToken();
    const stranger = generatePrivateKey();
    await chain.mint(privateKeyToAddress(stranger), token(500));
    await chain.mint(users.a!.address!, token(1));
    const faucetless = await chain.deployOtherToken();
    expect(faucetless).not.toBe(other);
    await chain.mine(5);
    await watcher.pollAll();
    const rows = await deposits("a");
    expect(rows.map((r) => r.state)).toEqual(["below_minimum", "credited"]);
    expect(balance("a")).toBe(before);
    expect(await deposits("b")).toEqual([]);
  });

  it("never credits a transfer a reorganisation removed", async () => {
    const before = balance("b");
    await chain.mint(users.b!.address!, token(40));
    await watcher.pollAll();
    expect(await deposits("b")).toMatchObject([{ state: "confirming" }]);
    await chain.reorg(1);
    await watcher.pollAll();
    expect(await deposits("b")).toMatchObject([{ state: "dropped" }]);
    await chain.mine(10);
    await watcher.pollAll();
    expect(await deposits("b")).toMatchObject([{ state: "dropped" }]);
    expect(balance("b")).toBe(before);
  });

  it("credits once across a restart in the middle of the confirmations and of the credit", async () => {
    const before = balance("b");
    await chain.mint(users.b!.address!, token(70));
    await watcher.pollAll();
    // A restarted server: a new watcher on the same database and journal.
    const restarted = () =>
      new ChainDeposits({
        engine: running.engine,
        repository: new ChainRepository(database()),
        xpub: root.publicExtendedKey,
        networks: [net],
        now: () => nowMs,
      });
    await chain.mine(2);
    await restarted().pollAll();
    expect(balance("b") - before).toBe(70n * 10n ** BigInt(scale()));
    // A crash after the kernel credited and before the record said so: the next round finds the
    // posting by its command id and credits nothing more.
    await sql`UPDATE chain_deposits SET state = 'crediting', posting_seq = NULL
      WHERE state = 'credited' AND owner_id = ${users.b!.id}`.execute(database().db);
    await flushReadModels();
    await Promise.all([restarted().pollAll(), restarted().pollAll()]);
    expect(await deposits("b")).toMatchObject([{ state: "credited" }, { state: "dropped" }]);
    expect(balance("b") - before).toBe(70n * 10n ** BigInt(scale()));
    // A crash after the claim and before the kernel: the next round credits it, once.
    await chain.mint(users.b!.address!, token(30));
    await chain.mine(1);
    await watcher.pollAll();
    await sql`UPDATE chain_deposits SET state = 'crediting'
      WHERE state = 'confirming' AND amount = ${token(30).toString()}`.execute(database().db);
    await chain.mine(1);
    const [row] = await deposits("b");
    expect(row!.state).toBe("confirming");
    await restarted().pollAll();
    await restarted().pollAll();
    expect(balance("b") - before).toBe(100n * 10n ** BigInt(scale()));
  });

  it("pays an approved withdrawal on chain, exactly, and completes it after the confirmations", async () => {
    const before = balance("a");
    const payee = privateKeyToAddress(generatePrivateKey());
    const post = (url: string, payload?: object, user?: string) =>
      app.inject({
        method: "POST",
        url,
        remoteAddress: `10.4.1.${ip++ % 250}`,
        headers: {
          authorization: user ? `Bearer ${users[user]!.token}` : "Bearer operator-token",
        },
        ...operatorPayload("POST", url, payload),
      });
    const saved = await post(
      "/api/v1/wallet/withdraw-addresses",
      { network: "ethereum", address: payee, remark: "cold" },
      "a",
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const requested = await post(
      "/api/v1/wallet/withdrawals",
      {
        requestId: "chain-wd-1",
        addressId: saved.json().data.address.addressId,
        asset: "USDT",
        amount: "100",
        tradePassword: "trade1234",
      },
      "a",
    );
    expect(requested.statusCode, requested.body).toBe(200);
    const id = requested.json().data.withdrawalId as string;
    // Not before approval.
    const early = await post(`/api/v1/operator/withdrawals/${id}/broadcast`);
    expect(early.json().error).toBe("withdrawal_state_invalid");
    expect((await post(`/api/v1/operator/withdrawals/${id}/approve`)).statusCode).toBe(200);
    const sent = await post(`/api/v1/operator/withdrawals/${id}/broadcast`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.status).toBe("sent");
    const txHash = sent.json().data.txHash as string;
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    // Exactly the amount (the fee stays with the operator's fee account), once.
    expect(await chain.balanceOf(payee)).toBe(token(100));
    const again = await post(`/api/v1/operator/withdrawals/${id}/broadcast`);
    expect(again.json().data.txHash).toBe(txHash);
    expect(await chain.balanceOf(payee)).toBe(token(100));
    await payouts.pollSent();
    const mine = () =>
      app.inject({
        method: "GET",
        url: `/api/v1/wallet/withdrawals/${id}`,
        headers: { authorization: `Bearer ${users.a!.token}` },
      });
    expect((await mine()).json().data.status).toBe("sent");
    await chain.mine(2);
    await payouts.pollSent();
    const done = (await mine()).json().data;
    expect(done).toMatchObject({ status: "completed", txHash });
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual(
      expect.arrayContaining(["pending", "approved", "sent", "completed"]),
    );
    expect(before - balance("a")).toBe(105n * 10n ** BigInt(scale()));
    const late = await post(`/api/v1/operator/withdrawals/${id}/broadcast`);
    expect(late.json().error).toBe("withdrawal_state_invalid");
  });

  const scale = () =>
    running.engine.query((s) => {
      for (const asset of s.reference.assets.values()) {
        if (asset.assetId === "USDT") return asset.scale;
      }
      return 0;
    });
});
