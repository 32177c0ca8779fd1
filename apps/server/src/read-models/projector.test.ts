import { expect, it } from "vitest";
import { sql } from "kysely";
import { describeEachDatabase } from "../testing/databases.ts";
import { clearReadModels, compareBalances, ReadModelProjector } from "./projector.ts";

const order = (orderId: number, ownerId: string, side: string, lots: number) => ({
  orderId,
  clientOrderId: `c${orderId}`,
  ownerId,
  mode: "real",
  marketId: "BTC-USDT",
  side,
  orderType: "limit",
  timeInForce: "gtc",
  priceTicks: 100,
  quantityLots: lots,
  quoteAmount: null,
  filledLots: 0,
  remainingLots: lots,
  heldAmount: 0n,
  status: "open",
  createdAtMs: 1_000,
});

const posting = (seq: number, debit: string, credit: string, amount: bigint, reason: string) => ({
  type: "posting",
  posting: {
    seq,
    debitAccount: debit,
    creditAccount: credit,
    assetId: debit.split("|")[3]!,
    amount,
    debitHeld: false,
    reason,
    commandId: `cmd${seq}`,
    atMs: 1_000,
    orderId: null,
    fillId: null,
    tickId: null,
    operatorId: null,
    reference: null,
  },
});

const stream = [
  {
    sequence: 1n,
    events: [posting(1, "system:external|real|fund|USDT", "1|real|fund|USDT", 500n, "deposit")],
  },
  {
    sequence: 2n,
    events: [
      {
        type: "tick_recorded",
        tick: {
          tickId: "t1",
          instrumentId: "BTC-USDT",
          price: "100",
          tickAtMs: 1,
          recordedAtMs: 1,
        },
      },
    ],
  },
  {
    sequence: 3n,
    events: [
      { type: "order_accepted", order: order(1, "2", "sell", 5) },
      { type: "order_rested", orderId: 1, priceTicks: 100, remainingLots: 5, heldAmount: 5n },
    ],
  },
  {
    sequence: 4n,
    events: [
      { type: "order_accepted", order: order(2, "1", "buy", 3) },
      {
        type: "fill",
        fillId: 1,
        marketId: "BTC-USDT",
        mode: "real",
        makerOrderId: 1,
        takerOrderId: 2,
        makerOwnerId: "2",
        takerOwnerId: "1",
        takerSide: "buy",
        priceTicks: 100,
        quantityLots: 3,
        baseAmount: 3n,
        quoteAmount: 300n,
        feeMaker: 1n,
        feeMakerAssetId: "USDT",
        feeTaker: 0n,
        feeTakerAssetId: "BTC",
        tickId: "t1",
        atMs: 1_000,
      },
      posting(2, "1|real|fund|USDT", "2|real|fund|USDT", 300n, "trade"),
      { type: "order_done", orderId: 2, status: "filled", filledLots: 3 },
    ],
  },
];

describeEachDatabase("read-model projector", (database) => {
  it("projects orders, fills, statement lines and ticks, and resumes after its cursor", async () => {
    await clearReadModels(database());
    const projector = new ReadModelProjector(database());
    expect(await projector.load()).toBe(0n);
    for (const applied of stream.slice(0, 3)) projector.handle(applied);
    await projector.flush();
    expect(projector.cursor).toBe(3n);

    const restarted = new ReadModelProjector(database());
    expect(await restarted.load()).toBe(3n);
    for (const applied of stream) restarted.handle(applied); // 1–3 are skipped
    await restarted.flush();

    const orders = await sql<{
      order_id: bigint;
      filled_lots: bigint;
      remaining_lots: bigint;
      status: string;
    }>`
      SELECT order_id, filled_lots, remaining_lots, status FROM rm_orders ORDER BY order_id`.execute(
      database().db,
    );
    expect(orders.rows).toEqual([
      { order_id: 1n, filled_lots: 3n, remaining_lots: 2n, status: "open" },
      { order_id: 2n, filled_lots: 3n, remaining_lots: 0n, status: "filled" },
    ]);
    const fills = await sql<{ fill_id: bigint; sequence: bigint; quote_amount: string }>`
      SELECT fill_id, sequence, quote_amount::text AS quote_amount FROM rm_fills`.execute(
      database().db,
    );
    expect(fills.rows).toEqual([{ fill_id: 1n, sequence: 4n, quote_amount: "300" }]);
    const lines = await sql<{
      n: bigint;
    }>`SELECT count(*)::int8 AS n FROM rm_statement_lines`.execute(database().db);
    expect(lines.rows[0]!.n).toBe(4n);

    const kernel = new Map([
      ["system:external|real|fund|USDT", -500n],
      ["1|real|fund|USDT", 200n],
      ["2|real|fund|USDT", 301n],
    ]);
    const differences = await compareBalances(database(), (a) => kernel.get(a) ?? 0n, [
      ...kernel.keys(),
    ]);
    expect(differences).toEqual([{ account: "2|real|fund|USDT", readModel: 300n, kernel: 301n }]);
  });

  it("writes text, amounts and nulls as they are; a lone surrogate as U+FFFD", async () => {
    // The rows travel as one JSON parameter per statement (statements.ts): quotes,
    // backslashes, SQL-looking text, non-ASCII and amounts past 2^53 must arrive unchanged.
    await clearReadModels(database());
    const projector = new ReadModelProjector(database());
    await projector.load();
    const reference = `a"b\\c'd\n€ 中文 😀 $1 ); DROP TABLE rm_orders; --`;
    const line = posting(7, "1|real|fund|USDT", "2|real|fund|USDT", 2n ** 80n, "transfer");
    line.posting.reference = reference as unknown as null;
    const odd = posting(8, "1|real|fund|USDT", "2|real|fund|USDT", 1n, "transfer");
    odd.posting.reference = "x\ud800y" as unknown as null;
    projector.handle({ sequence: 1n, events: [line, odd] });
    await projector.flush();
    expect(projector.failed).toBe(false);
    const rows = await sql<{ posting_seq: bigint; amount: string; reference: string | null }>`
      SELECT posting_seq, amount::text AS amount, reference FROM rm_statement_lines
      WHERE account = '2|real|fund|USDT' ORDER BY posting_seq`.execute(database().db);
    expect(rows.rows).toEqual([
      { posting_seq: 7n, amount: String(2n ** 80n), reference },
      { posting_seq: 8n, amount: "1", reference: "x\ufffdy" },
    ]);
    const nulls = await sql<{ n: bigint }>`
      SELECT count(*)::int8 AS n FROM rm_statement_lines
      WHERE order_id IS NULL AND fill_id IS NULL AND tick_id IS NULL`.execute(database().db);
    expect(nulls.rows[0]!.n).toBe(4n);
  });
});
