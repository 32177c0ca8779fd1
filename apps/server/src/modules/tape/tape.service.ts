import {
  tapeSequencesMax,
  type EndpointQuery,
  type TapePage,
  type tapeEndpoint,
  type tapeTickEndpoint,
  type TickNeighbourhood,
} from "@candor/contract";
import { AppError } from "../../http/app-error.ts";
import type { TapeRepository, TapeTickRow } from "./tape.repository.ts";

const fillRowsMax = 5_000;

/** A system owner keeps its label on the tape; every user is just "user". */
const label = (ownerId: string) => (ownerId.startsWith("system:") ? ownerId : "user");

/** The public tape: recorded ticks and anonymised fills, in pages by journal sequence. */
export class TapeService {
  constructor(private readonly repository: TapeRepository) {}

  /**
   * Sequences `from` to `to` (default: `tapeSequencesMax` of them), never past what the read
   * models hold; a page with too many fills ends early, before the last sequence it reached.
   */
  async page(query: EndpointQuery<typeof tapeEndpoint>): Promise<TapePage> {
    const completeTo = await this.repository.completeTo();
    const from = BigInt(query.from);
    let to = query.to ? BigInt(query.to) : from + BigInt(tapeSequencesMax) - 1n;
    if (to > completeTo) to = completeTo;
    const page: TapePage = {
      from: from.toString(),
      to: (to < from ? from - 1n : to).toString(),
      completeTo: completeTo.toString(),
      ticks: [],
      fills: [],
    };
    if (to < from) return page;
    let fillRows = await this.repository.fills(from, to, query.mode ?? "real", fillRowsMax + 1);
    if (fillRows.length > fillRowsMax) {
      // Too many fills for one page: end the page before the last sequence it reached.
      const last = BigInt(fillRows[fillRowsMax]!.sequence);
      if (last > from) {
        to = last - 1n;
        fillRows = fillRows.filter((row) => BigInt(row.sequence) <= to);
      }
      page.to = to.toString();
    }
    const ticks = await this.repository.ticks(from, to, tapeSequencesMax);
    page.ticks = ticks.map(tickView);
    page.fills = fillRows.map((row) => ({
      sequence: String(row.sequence),
      fillId: String(row.fill_id),
      marketId: row.market_id,
      mode: row.mode,
      takerSide: row.taker_side,
      priceTicks: String(row.price_ticks),
      quantityLots: String(row.quantity_lots),
      baseAmount: row.base_amount,
      quoteAmount: row.quote_amount,
      maker: label(row.maker_owner_id),
      taker: label(row.taker_owner_id),
      tickId: row.tick_id,
      atMs: Number(row.at_ms),
    }));
    return page;
  }

  /** The tape viewer: one tick and its instrument's ticks around it, in journal order. */
  async tick(query: EndpointQuery<typeof tapeTickEndpoint>): Promise<TickNeighbourhood> {
    const row = await this.repository.tick(query.instrumentId, query.tickId);
    if (!row) throw new AppError("not_found");
    const sequence = BigInt(row.sequence);
    const [before, after] = await Promise.all([
      this.repository.neighbours(row.instrument_id, sequence, "before", query.around),
      this.repository.neighbours(row.instrument_id, sequence, "after", query.around),
    ]);
    return {
      tick: tickView(row),
      before: before.reverse().map(tickView),
      after: after.map(tickView),
    };
  }
}

function tickView(row: TapeTickRow) {
  return {
    sequence: String(row.sequence),
    instrumentId: row.instrument_id,
    tickId: row.tick_id,
    price: row.price,
    tickAtMs: Number(row.tick_at_ms),
  };
}
