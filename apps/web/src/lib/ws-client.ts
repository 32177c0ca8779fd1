import type { Channel, WsServerMessage as ServerMessage } from "@candor/contract";
import i18n from "i18next";
import { getSession, onSessionChange } from "./session.ts";

// The socket path and stream names of packages/contract/src/ws.ts, restated here so the home
// route does not load zod (the budget); ws-client.test.ts checks they agree with the contract.
export const wsPath = "/api/v1/ws";

/** The stream name of a channel, as the contract's `streamKey`. */
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

/**
 * A light check of a frame from our own server: an object with a string `type`, and for data
 * messages a string `stream`. Screens read only the fields of the types they subscribe to.
 */
export function readServerMessage(text: string): ServerMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const message = value as { type?: unknown; stream?: unknown; data?: unknown };
  if (typeof message.type !== "string") return undefined;
  if ("stream" in message && typeof message.stream !== "string") return undefined;
  if (message.type === "ticker" && (typeof message.data !== "object" || message.data === null)) {
    return undefined;
  }
  return value as ServerMessage;
}

/** Channels that need a signed-in connection (the server refuses them before `auth`). */
const privateChannels: ReadonlySet<string> = new Set(["orders", "fills", "balances", "seconds"]);

/** Waits before reconnecting: 1 s, doubling, at most 30 s. */
const reconnectDelayMsMin = 1_000;
const reconnectDelayMsMax = 30_000;
/** Ping interval when the server's welcome does not say. */
const heartbeatMsDefault = 15_000;

type Listener = (message: ServerMessage) => void;
/** Connection state for the UI: live, connecting, or down with the reason. */
export type SocketState = "connecting" | "open" | "closed";

/**
 * One WebSocket to `/api/v1/ws` shared by every screen. Screens subscribe to channels by
 * stream; the client counts references, resubscribes after a reconnect, answers the heartbeat
 * and drops frames that are not messages.
 */
export class MarketSocket {
  private socket: WebSocket | undefined;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly channels = new Map<string, Channel>();
  private readonly stateListeners = new Set<(state: SocketState) => void>();
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectDelayMs = reconnectDelayMsMin;
  state: SocketState = "closed";

  /**
   * `signedIn` says whether a session is signed in: the upgrade request carries its cookie, so
   * the connection is the session's, and private channels (orders, fills, balances) are asked
   * for only then.
   */
  constructor(
    private readonly url: () => string,
    private readonly signedIn: () => boolean = () => false,
  ) {}

  /** Listens to one channel; returns the function that stops listening. */
  subscribe(channel: Channel, listener: Listener): () => void {
    const key = streamKey(channel);
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
      this.channels.set(key, channel);
      this.sendSubscribe(channel);
    }
    set.add(listener);
    this.ensureOpen();
    return () => {
      set.delete(listener);
      if (set.size > 0) return;
      this.listeners.delete(key);
      this.channels.delete(key);
      this.send({ op: "unsubscribe", channels: [channel] });
      if (this.listeners.size === 0) this.close();
    };
  }

  onState(listener: (state: SocketState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private setState(state: SocketState) {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  /**
   * One subscribe message per channel, so a refused channel never takes others with it (the
   * server answers a batch with one error and subscribes none of it). Without a session,
   * private channels are not asked for at all.
   */
  private sendSubscribe(channel: Channel) {
    if (privateChannels.has(channel.channel) && !this.signedIn()) return;
    this.send({ op: "subscribe", channels: [channel] });
  }

  private send(message: unknown) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private ensureOpen() {
    if (this.socket || this.reconnectTimer) return;
    this.setState("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.onopen = () => {
      this.reconnectDelayMs = reconnectDelayMsMin;
      this.setState("open");
      for (const channel of this.channels.values()) this.sendSubscribe(channel);
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      const message = readServerMessage(String(event.data));
      if (message) this.dispatch(message);
    };
    socket.onclose = () => {
      // A socket replaced by `renewIdentity` closes late: it must not touch the new one.
      if (this.socket !== socket) return;
      clearInterval(this.heartbeat);
      this.socket = undefined;
      this.setState("closed");
      if (this.listeners.size === 0) return;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined;
        this.ensureOpen();
      }, this.reconnectDelayMs);
      this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, reconnectDelayMsMax);
    };
  }

  /**
   * The signed-in session (user or mode) changed: connect again, so the connection's identity
   * follows and the private channels are subscribed as the new session (or not at all).
   */
  renewIdentity() {
    if (!this.socket && !this.reconnectTimer) return;
    this.close();
    if (this.listeners.size > 0) this.ensureOpen();
  }

  private dispatch(message: ServerMessage) {
    if (message.type === "welcome") {
      clearInterval(this.heartbeat);
      const everyMs = Math.max(1_000, Math.floor((message.heartbeatMs || heartbeatMsDefault) / 2));
      this.heartbeat = setInterval(() => this.send({ op: "ping" }), everyMs);
      return;
    }
    if ("stream" in message && typeof message.stream === "string") {
      for (const listener of this.listeners.get(message.stream) ?? []) listener(message);
    }
  }

  private close() {
    clearInterval(this.heartbeat);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.socket?.close(1000);
    this.socket = undefined;
  }
}

let shared: MarketSocket | undefined;

/** The app's socket; the URL carries the current language for server messages. */
export function marketSocket(): MarketSocket {
  shared ??= new MarketSocket(
    () => {
      const scheme = window.location.protocol === "https:" ? "wss" : "ws";
      return `${scheme}://${window.location.host}${wsPath}?lang=${encodeURIComponent(i18n.language)}`;
    },
    () => getSession() !== null,
  );
  const socket = shared;
  const identity = () => {
    const session = getSession();
    return session ? `${session.user.id}|${session.user.is_virtual}` : "";
  };
  let current = identity();
  onSessionChange(() => {
    const next = identity();
    if (next === current) return;
    current = next;
    socket.renewIdentity();
  });
  return shared;
}
