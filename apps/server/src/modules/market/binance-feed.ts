import {
  binanceCombinedStreamUrl,
  instrumentsByBinanceSymbol,
  parseBinanceMessage,
  type Instrument,
  type PriceFeed,
  type Tick,
} from "@candor/market";
import { WebSocket } from "ws";

export interface BinanceFeedOptions {
  /** Stream host, e.g. `wss://stream.binance.com:9443` (or a local replay server in tests). */
  baseUrl: string;
  /** Instruments to price from Binance; those without a Binance symbol are ignored. */
  instruments: readonly Instrument[];
  /** Wait before reconnecting after a close, doubling up to `reconnectDelayMsMax`. */
  reconnectDelayMs?: number;
  reconnectDelayMsMax?: number;
  /** Ticks held for a slow reader before the oldest are dropped (counted in `dropped`). */
  bufferedTicksMax?: number;
}

/**
 * Prices instruments from Binance's public combined trade stream. Reconnects after every close
 * with a growing delay, and never blocks the socket on a slow reader: the buffer is bounded.
 */
export class BinanceFeed implements PriceFeed {
  readonly source = "binance" as const;
  readonly instrumentIds: readonly string[];
  /** Connections opened so far (1 + reconnects). */
  connects = 0;
  parseErrors = 0;
  dropped = 0;

  private readonly url: string;
  private readonly index: ReadonlyMap<string, Instrument>;
  private readonly buffer: Tick[] = [];
  private waiting: (() => void) | undefined;
  private socket: WebSocket | undefined;
  private closed = false;
  private delayMs: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: BinanceFeedOptions) {
    const listed = options.instruments.filter((i) => i.binanceSymbol);
    this.instrumentIds = listed.map((i) => i.id);
    this.index = instrumentsByBinanceSymbol(listed);
    this.url = binanceCombinedStreamUrl(options.baseUrl, listed);
    this.delayMs = options.reconnectDelayMs ?? 1_000;
    this.connect();
  }

  async *ticks(): AsyncIterable<Tick> {
    while (true) {
      const tick = this.buffer.shift();
      if (tick) {
        yield tick;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket?.terminate();
    this.wake();
  }

  private connect(): void {
    if (this.closed) return;
    this.connects += 1;
    const socket = new WebSocket(this.url, { maxPayload: 64 * 1024 });
    this.socket = socket;
    socket.on("open", () => {
      this.delayMs = this.options.reconnectDelayMs ?? 1_000;
    });
    socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      const parsed = parseBinanceMessage(data.toString(), this.index);
      if (parsed.kind === "error") this.parseErrors += 1;
      if (parsed.kind !== "tick") return;
      this.buffer.push(parsed.tick);
      if (this.buffer.length > (this.options.bufferedTicksMax ?? 10_000)) {
        this.buffer.shift();
        this.dropped += 1;
      }
      this.wake();
    });
    socket.on("error", () => {}); // A close follows; reconnecting happens there.
    socket.on("close", () => {
      if (this.closed) return;
      this.timer = setTimeout(() => this.connect(), this.delayMs);
      this.delayMs = Math.min(this.delayMs * 2, this.options.reconnectDelayMsMax ?? 30_000);
    });
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }
}
