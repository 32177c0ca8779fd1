import {
  errorMessage,
  isPrivateChannel,
  isSupportChannel,
  resolveLocale,
  streamKey,
  WsClientMessage,
  wsCloseCodes,
  wsProtocolVersion,
  wsSubscriptionsMax,
  type Channel,
  type ErrorCode,
  type Locale,
  type SupportChannel,
  type WsPrivate,
  type WsSupportMessage,
  type WsSupportRead,
} from "@candor/contract";
import type { WebSocket } from "ws";
import type { MarketPublisher } from "./market.service.ts";

/** Who a signed-in connection belongs to. */
export interface WsIdentity {
  userId: string;
  mode: "real" | "demo";
  /** SHA-256 of the session's token: its streams end when that session ends. Never sent. */
  sessionTokenHash?: string;
  /** When that session expires (epoch ms): the sweep closes the connection then. */
  sessionEndsAtMs?: number;
}

export interface WsHubOptions {
  /** Checks a bearer token sent with `auth`; null means unauthorised. */
  authenticate?: (token: string) => Promise<WsIdentity | null>;
  /** Checks a public channel (the instrument exists); an error code rejects it. */
  validate: (channel: Channel) => ErrorCode | null;
  /** Messages a new subscriber gets at once: the current ticker, depth snapshot, candle. */
  initialMessages: (channel: Channel) => unknown[];
  now: () => number;
  /** Bytes a connection may have waiting to be sent before it is closed as a slow consumer. */
  sendQueueBytesMax?: number;
  subscriptionsMax?: number;
  /** The client pings at least this often; silence for twice as long closes the connection. */
  heartbeatMs?: number;
  /** Bad messages tolerated before closing with 4000. */
  badMessagesMax?: number;
}

/**
 * Whom a support subscription listens for: the conversation of a signed-in user or of a
 * visitor's token, or every conversation (a support operator).
 */
export type SupportAudience =
  | { kind: "user"; userId: string }
  | { kind: "visitor"; conversationId: string }
  | {
      kind: "operator";
      operatorId: string;
      /** SHA-256 of the operator's session token: its subscription ends with the session. */
      tokenHash?: string;
      /** When the operator's session expires (epoch ms): the sweep closes the stream then. */
      endsAtMs?: number;
    };

/** Checks a support channel's access; null refuses it (`unauthorized`). */
export type SupportAccess = (
  channel: SupportChannel,
  identity: WsIdentity | undefined,
) => Promise<SupportAudience | null>;

/** One client connection: its socket, subscriptions and identity. */
class HubConnection {
  readonly streams = new Set<string>();
  identity: WsIdentity | undefined;
  /** The `support` channel's conversation, once subscribed. */
  supportAudience: SupportAudience | undefined;
  /** The operator session of the `support_operator` subscription, once subscribed. */
  supportOperatorTokenHash: string | undefined;
  /** When the `support_operator` subscription's session expires (epoch ms). */
  supportOperatorEndsAtMs: number | undefined;
  lastSeenMs: number;
  badMessages = 0;
  closed = false;

  constructor(
    readonly socket: WebSocket,
    readonly locale: Locale,
    nowMs: number,
  ) {
    this.lastSeenMs = nowMs;
  }
}

/**
 * The WebSocket hub: keeps who listens to which stream and sends each message, serialised once,
 * to every subscriber. Each connection's send queue is bounded by `sendQueueBytesMax` (ws's
 * `bufferedAmount`); a client that lets it overflow is closed with 4008 instead of growing
 * server memory.
 */
export class WsHub implements MarketPublisher {
  private readonly subscribers = new Map<string, Set<HubConnection>>();
  private readonly connections = new Set<HubConnection>();
  private readonly sendQueueBytesMax: number;
  private readonly subscriptionsMax: number;
  private readonly heartbeatMs: number;
  private readonly badMessagesMax: number;
  /** Connections closed for being slow, since start (for logs and tests). */
  slowConsumersClosed = 0;

  private supportAccess: SupportAccess | undefined;

  /** Sets how support channels are checked (the support module, once the app exists). */
  setSupportAccess(access: SupportAccess): void {
    this.supportAccess = access;
  }

  /** Sets how `auth` tokens are checked (the app's session lookup, once the app exists). */
  setAuthenticate(authenticate: (token: string) => Promise<WsIdentity | null>): void {
    this.options.authenticate = authenticate;
  }

  constructor(private readonly options: WsHubOptions) {
    this.sendQueueBytesMax = options.sendQueueBytesMax ?? 1024 * 1024;
    this.subscriptionsMax = options.subscriptionsMax ?? wsSubscriptionsMax;
    this.heartbeatMs = options.heartbeatMs ?? 30_000;
    this.badMessagesMax = options.badMessagesMax ?? 3;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Takes over an upgraded socket. `url` and `acceptLanguage` pick the messages' language. */
  attach(
    socket: WebSocket,
    request: { url?: string; acceptLanguage?: string; identity?: WsIdentity },
  ): void {
    const lang = new URL(request.url ?? "/", "http://localhost").searchParams.get("lang");
    const connection = new HubConnection(
      socket,
      resolveLocale(lang ?? undefined, request.acceptLanguage),
      this.options.now(),
    );
    // Signed in by the session cookie (or Authorization header) of the upgrade request.
    connection.identity = request.identity;
    this.connections.add(connection);
    socket.on("message", (data, isBinary) => {
      void this.receive(connection, isBinary ? null : data.toString());
    });
    socket.on("close", () => this.drop(connection));
    socket.on("error", () => this.drop(connection));
    this.send(connection, {
      type: "welcome",
      protocol: wsProtocolVersion,
      serverTimeMs: this.options.now(),
      heartbeatMs: this.heartbeatMs,
      subscriptionsMax: this.subscriptionsMax,
    });
  }

  wants(stream: string): boolean {
    const set = this.subscribers.get(stream);
    return set !== undefined && set.size > 0;
  }

  /** Serialises once and sends the same bytes to every subscriber of `stream`. */
  publish(stream: string, message: unknown): void {
    const set = this.subscribers.get(stream);
    if (!set || set.size === 0) return;
    this.publishBytes(stream, Buffer.from(JSON.stringify(message)));
  }

  publishBytes(stream: string, bytes: Buffer): void {
    const set = this.subscribers.get(stream);
    if (!set) return;
    for (const connection of set) this.sendBytes(connection, bytes);
  }

  /**
   * Sends a private message (orders, fills, balances) to a user's connections subscribed to
   * `stream` in `mode`. `build` runs at once, and only when there is such a connection: nothing
   * is built or serialised for nobody.
   */
  publishPrivate(
    userId: string,
    mode: "real" | "demo",
    stream: "orders" | "fills" | "balances" | "seconds" | "perp",
    build: () => WsPrivate,
  ): void {
    const set = this.subscribers.get(stream);
    if (!set) return;
    let bytes: Buffer | undefined;
    for (const connection of set) {
      if (connection.identity?.userId !== userId || connection.identity.mode !== mode) continue;
      bytes ??= Buffer.from(JSON.stringify(build()));
      this.sendBytes(connection, bytes);
    }
  }

  /**
   * Sends a support event to the conversation's own subscribers (its user's connections, or the
   * visitor's) on `support`, and to every support operator on `support_operator`.
   */
  publishSupport(
    target: { conversationId: string; userId: string | null },
    build: (stream: "support" | "support_operator") => WsSupportMessage | WsSupportRead,
  ): void {
    const own = this.subscribers.get("support");
    if (own) {
      let bytes: Buffer | undefined;
      for (const connection of own) {
        const audience = connection.supportAudience;
        const matches =
          (audience?.kind === "user" && audience.userId === target.userId) ||
          (audience?.kind === "visitor" && audience.conversationId === target.conversationId);
        if (!matches) continue;
        bytes ??= Buffer.from(JSON.stringify(build("support")));
        this.sendBytes(connection, bytes);
      }
    }
    const operators = this.subscribers.get("support_operator");
    if (operators && operators.size > 0) {
      this.publishBytes("support_operator", Buffer.from(JSON.stringify(build("support_operator"))));
    }
  }

  /**
   * Closes connections silent for more than two heartbeats, and (with 4003) those whose
   * session — the user's, or the operator's of a support-desk stream — has expired.
   */
  sweep(nowMs: number): void {
    for (const connection of this.connections) {
      const userEnds = connection.identity?.sessionEndsAtMs;
      const operatorEnds = connection.supportOperatorEndsAtMs;
      if (
        (userEnds !== undefined && nowMs >= userEnds) ||
        (operatorEnds !== undefined && nowMs >= operatorEnds)
      ) {
        this.close(connection, wsCloseCodes.sessionEnded, "session ended");
      } else if (nowMs - connection.lastSeenMs > 2 * this.heartbeatMs) {
        this.close(connection, wsCloseCodes.heartbeatTimeout, "heartbeat timeout");
      }
    }
  }

  /**
   * Closes at once, with 4003, every connection signed in by a session that just ended: one
   * session (`sessionTokenHash`) or all of a user's (logout everywhere, password change). A
   * connection signed in without a known session is closed on any end of its user's sessions.
   */
  endSessions(userId: string, sessionTokenHash?: string): number {
    let closed = 0;
    for (const connection of this.connections) {
      const identity = connection.identity;
      if (identity?.userId !== userId) continue;
      if (
        sessionTokenHash !== undefined &&
        identity.sessionTokenHash !== undefined &&
        identity.sessionTokenHash !== sessionTokenHash
      ) {
        continue;
      }
      this.close(connection, wsCloseCodes.sessionEnded, "session ended");
      closed += 1;
    }
    return closed;
  }

  /** Closes, with 4003, the support desk connections of an operator session that ended. */
  endOperatorSession(tokenHash: string): number {
    let closed = 0;
    for (const connection of this.connections) {
      if (connection.supportOperatorTokenHash !== tokenHash) continue;
      this.close(connection, wsCloseCodes.sessionEnded, "session ended");
      closed += 1;
    }
    return closed;
  }

  closeAll(): void {
    for (const connection of this.connections) {
      this.close(connection, wsCloseCodes.goingAway, "server shutting down");
    }
  }

  private async receive(connection: HubConnection, text: string | null): Promise<void> {
    connection.lastSeenMs = this.options.now();
    let json: unknown;
    try {
      json = text === null ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = WsClientMessage.safeParse(json);
    if (!parsed.success) {
      connection.badMessages += 1;
      if (connection.badMessages >= this.badMessagesMax) {
        this.close(connection, wsCloseCodes.badMessage, "bad message");
      } else {
        this.sendError(connection, "bad_message");
      }
      return;
    }
    const message = parsed.data;
    switch (message.op) {
      case "ping":
        this.send(connection, {
          type: "pong",
          timeMs: message.timeMs,
          serverTimeMs: this.options.now(),
        });
        return;
      case "auth": {
        const identity = (await this.options.authenticate?.(message.token)) ?? null;
        if (!identity) {
          this.close(connection, wsCloseCodes.unauthorised, "unauthorised");
          return;
        }
        connection.identity = identity;
        this.send(connection, { type: "auth_ok", userId: identity.userId, mode: identity.mode });
        return;
      }
      case "subscribe":
        await this.subscribe(connection, message.channels, message.requestId);
        return;
      case "unsubscribe": {
        const streams = message.channels.map(streamKey);
        for (const stream of streams) {
          connection.streams.delete(stream);
          this.subscribers.get(stream)?.delete(connection);
        }
        this.send(connection, { type: "unsubscribed", requestId: message.requestId, streams });
        return;
      }
    }
  }

  private async subscribe(
    connection: HubConnection,
    channels: Channel[],
    requestId?: string,
  ): Promise<void> {
    const fresh = channels.filter((c) => !connection.streams.has(streamKey(c)));
    if (connection.streams.size + new Set(fresh.map(streamKey)).size > this.subscriptionsMax) {
      this.sendError(connection, "subscription_limit_reached", requestId);
      return;
    }
    let supportAudience: SupportAudience | undefined;
    let operatorTokenHash: string | undefined;
    let operatorEndsAtMs: number | undefined;
    for (const channel of channels) {
      if (isSupportChannel(channel)) {
        const audience = this.supportAccess
          ? await this.supportAccess(channel, connection.identity).catch(() => null)
          : null;
        if (connection.closed) return;
        if (!audience) {
          this.sendError(connection, "unauthorized", requestId);
          return;
        }
        if (channel.channel === "support") supportAudience = audience;
        if (audience.kind === "operator") {
          operatorTokenHash = audience.tokenHash;
          operatorEndsAtMs = audience.endsAtMs;
        }
        continue;
      }
      const code = isPrivateChannel(channel)
        ? connection.identity
          ? null
          : "unauthorized"
        : this.options.validate(channel);
      if (code) {
        this.sendError(connection, code, requestId);
        return;
      }
    }
    if (supportAudience) connection.supportAudience = supportAudience;
    if (operatorTokenHash) connection.supportOperatorTokenHash = operatorTokenHash;
    if (operatorEndsAtMs !== undefined) connection.supportOperatorEndsAtMs = operatorEndsAtMs;
    const streams = channels.map(streamKey);
    for (const stream of streams) {
      connection.streams.add(stream);
      let set = this.subscribers.get(stream);
      if (!set) this.subscribers.set(stream, (set = new Set()));
      set.add(connection);
    }
    this.send(connection, { type: "subscribed", requestId, streams });
    for (const channel of channels) {
      for (const message of this.options.initialMessages(channel)) this.send(connection, message);
    }
  }

  private sendError(connection: HubConnection, code: ErrorCode, requestId?: string): void {
    this.send(connection, {
      type: "error",
      requestId,
      error: code,
      message: errorMessage(connection.locale, code),
    });
  }

  private send(connection: HubConnection, message: unknown): void {
    this.sendBytes(connection, Buffer.from(JSON.stringify(message)));
  }

  private sendBytes(connection: HubConnection, bytes: Buffer): void {
    if (connection.closed) return;
    const socket = connection.socket;
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount + bytes.length > this.sendQueueBytesMax) {
      this.slowConsumersClosed += 1;
      this.close(connection, wsCloseCodes.slowConsumer, "slow consumer");
      return;
    }
    socket.send(bytes, { binary: false });
  }

  private close(connection: HubConnection, code: number, reason: string): void {
    if (connection.closed) return;
    this.drop(connection);
    try {
      connection.socket.close(code, reason);
    } catch {
      connection.socket.terminate();
    }
    // A slow client may never read the close frame: give it a second, then cut the socket.
    if (code === wsCloseCodes.slowConsumer) {
      setTimeout(() => connection.socket.terminate(), 1_000).unref();
    }
  }

  private drop(connection: HubConnection): void {
    connection.closed = true;
    this.connections.delete(connection);
    for (const stream of connection.streams) this.subscribers.get(stream)?.delete(connection);
    connection.streams.clear();
  }
}
