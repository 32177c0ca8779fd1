import type { WsBalances } from "@candor/contract";
import { getAssets, type AccountBalance, type KernelState, type Mode } from "@candor/kernel";
import type { CandorApplied } from "../../engine/kernel-port.ts";
import { balanceUpdateView } from "./wallet.views.ts";

/** Where the private `balances` messages go (the WebSocket hub implements it). */
export interface WalletStreamSink {
  /** Sends `build()` to the user's connections subscribed to `stream`; builds only if any. */
  publishPrivate(userId: string, mode: Mode, stream: "balances", build: () => WsBalances): void;
}

/** What the stream reads from the engine. */
export interface WalletStreamEngine {
  query<T>(fn: (state: KernelState) => T): T;
  subscribe(listener: (applied: CandorApplied) => void): () => void;
}

/**
 * The private `balances` stream: after every command that changed a user's accounts, those
 * accounts as balance views, one message per user and mode. System accounts (fees, the market
 * maker, …) are nobody's stream.
 */
export class WalletStreams {
  private readonly scales = new Map<string, number>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly engine: WalletStreamEngine,
    private readonly sink: WalletStreamSink,
  ) {
    this.unsubscribe = engine.subscribe((applied) => this.handle(applied));
  }

  stop(): void {
    this.unsubscribe();
  }

  private handle(applied: CandorApplied): void {
    if (applied.replay) return;
    for (const event of applied.events) {
      if (event.type !== "balances_changed") continue;
      const byOwner = new Map<string, AccountBalance[]>();
      for (const balance of event.balances) {
        if (balance.ownerId.startsWith("system:")) continue;
        const key = `${balance.mode}|${balance.ownerId}`;
        let list = byOwner.get(key);
        if (!list) byOwner.set(key, (list = []));
        list.push(balance);
      }
      for (const balances of byOwner.values()) {
        const { ownerId, mode } = balances[0]!;
        this.sink.publishPrivate(ownerId, mode, "balances", () => ({
          type: "balances",
          stream: "balances",
          data: {
            mode,
            balances: balances.map((b) => balanceUpdateView(b, this.scale(b.assetId))),
          },
        }));
      }
    }
  }

  private scale(assetId: string): number {
    let scale = this.scales.get(assetId);
    if (scale === undefined) {
      for (const a of this.engine.query((s) => getAssets(s))) this.scales.set(a.assetId, a.scale);
      scale = this.scales.get(assetId);
    }
    if (scale === undefined) throw new Error(`wallet streams: asset ${assetId} is not defined`);
    return scale;
  }
}
