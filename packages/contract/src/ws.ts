import { z } from "zod";
import {
  AccountMode,
  CandleInterval,
  CandleView,
  DepthLevel,
  DepthView,
  InstrumentId,
  TickerView,
  TradeView,
} from "./market.ts";
import { PerpOrderView, PerpPositionView } from "./perp.ts";
import { SecondsContractView } from "./seconds.ts";
import { SpotFillView, SpotOrderView } from "./spot.ts";
import { SupportMessageView, SupportSide, SupportToken } from "./support.ts";
import { BalancesChangedView } from "./wallet.ts";

/**
 * The WebSocket protocol on `/api/v1/ws`. Every frame is one JSON text message.
 *
 * 1. The server sends `welcome`. 2. The client may send `auth` with its bearer token to use the
 * private channels. 3. The client subscribes to channels; each data message names its `stream`
 * (see `streamKey`). Depth starts with `depth_snapshot`, then `depth_diff`s whose
 * `previousSequence` must equal the last sequence seen; on a gap the client resubscribes to get
 * a fresh snapshot. Trades carry `sequence` and `previousSequence` too (see `WsTrade`); on a
 * gap the client refetches recent trades. Tickers carry the `sequence` of the tick they reflect
 * (see `WsTicker`): a client drops one older than what it shows. The client sends `ping` at
 * least every `heartbeatMs`; the server answers `pong` and closes silent connections. A client
 * that cannot keep up is closed with 4008.
 */
export const wsProtocolVersion = 1;
export const wsPath = "/api/v1/ws";

/** Close codes the server uses (4000–4999 are application codes). */
export const wsCloseCodes = {
  normal: 1000,
  goingAway: 1001,
  /** Not JSON, unknown op, or fails the schema, more than a few times. */
  badMessage: 4000,
  /** A private channel or `auth` with a bad token. */
  unauthorised: 4001,
  /** The connection's session ended (logout, password change, revocation): sign in again. */
  sessionEnded: 4003,
  /** The send queue overflowed: the client reads too slowly. */
  slowConsumer: 4008,
  /** No ping within the heartbeat timeout. */
  heartbeatTimeout: 4009,
} as const;

export const PublicChannel = z.discriminatedUnion("channel", [
  z.object({ channel: z.literal("ticker"), instrumentId: InstrumentId }),
  z.object({
    channel: z.literal("depth"),
    instrumentId: InstrumentId,
    mode: AccountMode.default("real"),
  }),
  z.object({ channel: z.literal("trades"), instrumentId: InstrumentId }),
  z.object({ channel: z.literal("candles"), instrumentId: InstrumentId, interval: CandleInterval }),
]);

export const PrivateChannel = z.object({
  channel: z.enum(["orders", "fills", "balances", "seconds", "perp"]),
});

/**
 * The support chat (issue 23): `support` is the user's own conversation (a signed-in connection)
 * or a visitor's (its conversation `token`); `support_operator` is every conversation, for a
 * support operator whose session `token` the server checks against the role rule of the
 * operator conversation list. Tokens never appear in stream names.
 */
export const SupportChannel = z.discriminatedUnion("channel", [
  z.object({ channel: z.literal("support"), token: SupportToken.optional() }),
  z.object({ channel: z.literal("support_operator"), token: z.string().min(1).max(512) }),
]);
export type SupportChannel = z.infer<typeof SupportChannel>;

export const Channel = z.union([PublicChannel, PrivateChannel, SupportChannel]);
export type Channel = z.infer<typeof Channel>;

/** The stream name of a channel, used in acks and data messages: "ticker:BTCUSDT", "depth:BTCUSDT:real", "candles:BTCUSDT:1m", "orders". */
export function streamKey(channel: Channel): string {
  switch (channel.channel) {
    case "ticker":
    case "trades":
      return `${channel.channel}:${channel.instrumentId}`;
    case "depth":
      return `depth:${channel.instrumentId}:${channel.mode}`;
    case "candles":
      return `candles:${channel.instrumentId}:${channel.interval}`;
    default:
      return channel.channel;
  }
}

/** Whether a channel is one of the support chat's (checked by the support module). */
export function isSupportChannel(channel: Channel): channel is SupportChannel {
  return channel.channel === "support" || channel.channel === "support_operator";
}

/** Whether a channel needs a signed-in connection. */
export function isPrivateChannel(channel: Channel): boolean {
  return (
    channel.channel === "orders" ||
    channel.channel === "fills" ||
    channel.channel === "balances" ||
    channel.channel === "seconds" ||
    channel.channel === "perp"
  );
}

/** Most subscriptions one connection may hold. */
export const wsSubscriptionsMax = 100;
/** Largest client frame accepted, in bytes. */
export const wsClientMessageBytesMax = 16 * 1024;

// ---- client → server ----

export const WsClientMessage = z.discriminatedUnion("op", [
  z.object({ op: z.literal("auth"), token: z.string().min(1).max(512) }),
  z.object({
    op: z.literal("subscribe"),
    /** Echoed in the answer so the client can match it. */
    requestId: z.string().max(64).optional(),
    channels: z.array(Channel).min(1).max(wsSubscriptionsMax),
  }),
  z.object({
    op: z.literal("unsubscribe"),
    requestId: z.string().max(64).optional(),
    channels: z.array(Channel).min(1).max(wsSubscriptionsMax),
  }),
  z.object({ op: z.literal("ping"), timeMs: z.number().int().optional() }),
]);
export type WsClientMessage = z.infer<typeof WsClientMessage>;

// ---- server → client ----

export const WsWelcome = z.object({
  type: z.literal("welcome"),
  protocol: z.literal(wsProtocolVersion),
  serverTimeMs: z.number().int(),
  heartbeatMs: z.number().int(),
  subscriptionsMax: z.number().int(),
});
export const WsAuthOk = z.object({
  type: z.literal("auth_ok"),
  userId: z.string(),
  mode: AccountMode,
});
export const WsSubscribed = z.object({
  type: z.enum(["subscribed", "unsubscribed"]),
  requestId: z.string().optional(),
  streams: z.array(z.string()),
});
export const WsError = z.object({
  type: z.literal("error"),
  requestId: z.string().optional(),
  /** A stable code from errors.ts (e.g. instrument_not_found, subscription_limit_reached). */
  error: z.string(),
  /** In the connection's language (from `?lang=` or Accept-Language). */
  message: z.string(),
});
export const WsPong = z.object({
  type: z.literal("pong"),
  timeMs: z.number().int().optional(),
  serverTimeMs: z.number().int(),
});
/**
 * An instrument's ticker, at subscription and after every recorded tick. `sequence` is the
 * journal sequence of the last `record_tick` it reflects (the same number as that tick's
 * `WsTrade`), the same on every node: a client that gets a ticker with a lower sequence than the
 * one it shows (one sent late, or by a node further behind after a reconnect) drops it. Absent
 * from servers without a journal and from older servers (compare nothing then), and while a
 * node does not know it yet (no tick recorded since it started or before).
 */
export const WsTicker = z.object({
  type: z.literal("ticker"),
  stream: z.string(),
  sequence: z.number().int().optional(),
  data: TickerView,
});
/**
 * A public trade. `sequence` numbers the instrument's trades and `previousSequence` is the
 * sequence of the instrument's trade before it: a client whose last seen sequence differs (or
 * that gets `previousSequence: null` after it has seen one) missed trades and refetches the
 * recent trades over REST (GET /api/v1/market/instruments/:id/trades), then follows on.
 *
 * With the kernel (every deployed server: single process, leader, API node), `sequence` is the
 * journal sequence of the `record_tick` that recorded the print and `data.id` its tape tick id
 * (unique within the instrument), so every node sends the same numbers for the same trade and
 * a client can move to another node and continue; sequences rise but are not consecutive
 * (other records lie between).
 * A node's first trade of an instrument after it starts links to the last tick recorded
 * before it, like every later one; `previousSequence` is null only for the first trade ever
 * recorded of the instrument (and, rarely, when a node could not look the one before up in
 * time: see docs/deploy.md §4). Only recorded prints are sent: a tick the kernel rejected is
 * no trade. Without a kernel (tests), `sequence` counts the process's prints of
 * the instrument, 1, 2, 3…
 */
export const WsTrade = z.object({
  type: z.literal("trade"),
  stream: z.string(),
  sequence: z.number().int(),
  previousSequence: z.number().int().nullable(),
  data: TradeView,
});
export const WsCandle = z.object({
  type: z.literal("candle"),
  stream: z.string(),
  interval: CandleInterval,
  instrumentId: z.string(),
  data: CandleView,
});
export const WsDepthSnapshot = z.object({
  type: z.literal("depth_snapshot"),
  stream: z.string(),
  data: DepthView,
});
export const WsDepthDiff = z.object({
  type: z.literal("depth_diff"),
  stream: z.string(),
  instrumentId: z.string(),
  sequence: z.number().int(),
  /** Must equal the sequence of the previous snapshot or diff, else there was a gap. */
  previousSequence: z.number().int(),
  /** Changed levels; quantity "0" removes the level. */
  bids: z.array(DepthLevel),
  asks: z.array(DepthLevel),
  atMs: z.number().int(),
});
/**
 * Private streams carry contract views, never raw kernel events: `orders` sends the order as
 * GET /api/v1/spot/orders/:orderId does after every command that changed it, `fills` each fill
 * from the user's side, `balances` the user's accounts that a command changed.
 */
export const WsOrder = z.object({
  type: z.literal("order"),
  stream: z.literal("orders"),
  data: SpotOrderView,
});
export type WsOrder = z.infer<typeof WsOrder>;
export const WsFill = z.object({
  type: z.literal("fill"),
  stream: z.literal("fills"),
  data: SpotFillView,
});
export type WsFill = z.infer<typeof WsFill>;
export const WsBalances = z.object({
  type: z.literal("balances"),
  stream: z.literal("balances"),
  data: BalancesChangedView,
});
export type WsBalances = z.infer<typeof WsBalances>;
/** A seconds contract of the user, when bought and when settled (with both tick ids). */
export const WsSecondsContract = z.object({
  type: z.literal("seconds_contract"),
  stream: z.literal("seconds"),
  data: SecondsContractView,
});
export type WsSecondsContract = z.infer<typeof WsSecondsContract>;
/** A perpetual position of the user after every change (fill, margin, TP/SL, liquidation). */
export const WsPerpPosition = z.object({
  type: z.literal("perp_position"),
  stream: z.literal("perp"),
  data: PerpPositionView,
});
export type WsPerpPosition = z.infer<typeof WsPerpPosition>;
/** A perpetual order of the user when placed and when done. */
export const WsPerpOrder = z.object({
  type: z.literal("perp_order"),
  stream: z.literal("perp"),
  data: PerpOrderView,
});
export type WsPerpOrder = z.infer<typeof WsPerpOrder>;
/** The mark price of a market the user holds a position in, with its tape tick ids. */
export const WsPerpMark = z.object({
  type: z.literal("perp_mark"),
  stream: z.literal("perp"),
  data: z.object({
    marketId: z.string(),
    markPrice: z.string(),
    indexPrice: z.string(),
    tickIds: z.array(z.string()),
  }),
});
export type WsPerpMark = z.infer<typeof WsPerpMark>;
/** A funding payment of the user (paid or received), with the rate, mark and tick ids. */
export const WsPerpFunding = z.object({
  type: z.literal("perp_funding"),
  stream: z.literal("perp"),
  data: z.object({
    marketId: z.string(),
    atMs: z.number().int(),
    rate: z.string(),
    markPrice: z.string(),
    contracts: z.string(),
    amount: z.string(),
    tickIds: z.array(z.string()),
  }),
});
export type WsPerpFunding = z.infer<typeof WsPerpFunding>;
/** A new support message, on the conversation's `support` stream and on `support_operator`. */
export const WsSupportMessage = z.object({
  type: z.literal("support_message"),
  stream: z.enum(["support", "support_operator"]),
  data: SupportMessageView,
});
export type WsSupportMessage = z.infer<typeof WsSupportMessage>;
/** One side read a conversation up to a message (unread counts change). */
export const WsSupportRead = z.object({
  type: z.literal("support_read"),
  stream: z.enum(["support", "support_operator"]),
  data: z.object({
    conversationId: z.string(),
    /** The side that read. */
    side: SupportSide,
    upToMessageId: z.string(),
  }),
});
export type WsSupportRead = z.infer<typeof WsSupportRead>;

/** Any message of a private stream. */
export const WsPrivate = z.union([
  WsOrder,
  WsFill,
  WsBalances,
  WsSecondsContract,
  WsPerpPosition,
  WsPerpOrder,
  WsPerpMark,
  WsPerpFunding,
]);
export type WsPrivate = z.infer<typeof WsPrivate>;

export const WsServerMessage = z.discriminatedUnion("type", [
  WsWelcome,
  WsAuthOk,
  WsSubscribed,
  WsError,
  WsPong,
  WsTicker,
  WsTrade,
  WsCandle,
  WsDepthSnapshot,
  WsDepthDiff,
  WsOrder,
  WsFill,
  WsBalances,
  WsSecondsContract,
  WsPerpPosition,
  WsPerpOrder,
  WsPerpMark,
  WsPerpFunding,
  WsSupportMessage,
  WsSupportRead,
]);
export type WsServerMessage = z.infer<typeof WsServerMessage>;
