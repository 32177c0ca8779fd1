import type { IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { wsClientMessageBytesMax, wsPath } from "@candor/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { WebSocketServer } from "ws";
import type { WsHub, WsIdentity } from "./ws-hub.ts";

/** Options of `attachWebSocket`. */
export interface WebSocketEndpointOptions {
  /** Whether the hub checks `auth` tokens itself (else the app's sessions do). */
  hubAuthenticates: boolean;
  /** The public origin (`PUBLIC_URL`); unset, only the loopback origins of the port are valid. */
  publicUrl?: string;
  /** Open WebSocket connections one remote address may hold (default 20). */
  connectionsPerAddressMax?: number;
}

/**
 * The origins a browser may open the WebSocket from: the configured public origin, or, without
 * one, the loopback origins of the port the server listens on. A page on any other site cannot
 * ride the user's session cookie into a private stream (issue 14 item 7).
 */
export function allowedOrigins(publicUrl: string | undefined, port: number): Set<string> {
  if (publicUrl) return new Set([new URL(publicUrl).origin]);
  return new Set(
    ["127.0.0.1", "localhost", "[::1]"].flatMap((host) => [
      `http://${host}:${port}`,
      `https://${host}:${port}`,
    ]),
  );
}

/**
 * Serves the WebSocket protocol on `wsPath`: upgrades go to the hub, signed in by the session
 * of the upgrade request (cookie or Authorization header). Unless the hub already checks `auth`
 * tokens, they are checked against the app's sessions too. An upgrade from a foreign `Origin`
 * is refused with 403; one over the per-address connection cap with 429. Clients that send no
 * `Origin` (not browsers, so no ambient cookie to abuse) are let through.
 */
export function attachWebSocket(
  app: FastifyInstance,
  hub: WsHub,
  options: WebSocketEndpointOptions,
): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: wsClientMessageBytesMax });
  const perAddressMax = options.connectionsPerAddressMax ?? 20;
  const openByAddress = new Map<string, number>();
  let origins: Set<string> | undefined;
  app.server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? "").split("?")[0];
    if (path !== wsPath) {
      socket.destroy();
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined) {
      origins ??= allowedOrigins(
        options.publicUrl,
        (app.server.address() as AddressInfo | null)?.port ?? 0,
      );
      if (!origins.has(origin)) {
        refuse(socket, 403, "Forbidden");
        return;
      }
    }
    const address = request.socket.remoteAddress ?? "unknown";
    const open = openByAddress.get(address) ?? 0;
    if (open >= perAddressMax) {
      refuse(socket, 429, "Too Many Requests");
      return;
    }
    openByAddress.set(address, open + 1);
    let counted = true;
    const release = () => {
      if (!counted) return;
      counted = false;
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left > 0) openByAddress.set(address, left);
      else openByAddress.delete(address);
    };
    socket.once("close", release);
    void identityOf(app, request.headers).then((identity) => {
      wss.handleUpgrade(request, socket, head, (ws) => {
        ws.once("close", release);
        hub.attach(ws, {
          url: request.url,
          acceptLanguage: request.headers["accept-language"],
          identity,
        });
      });
    });
  });
  if (!options.hubAuthenticates) {
    hub.setAuthenticate((token) =>
      identityOf(app, { authorization: `Bearer ${token}` }).then((identity) => identity ?? null),
    );
  }
  app.addHook("onClose", async () => {
    hub.closeAll();
    wss.close();
  });
}

/** Answers an upgrade request with a plain HTTP refusal and closes the socket. */
function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** The signed-in user of an upgrade request or token, by the app's session lookup. */
async function identityOf(
  app: FastifyInstance,
  headers: Record<string, string | string[] | undefined>,
): Promise<WsIdentity | undefined> {
  if (!app.hasDecorator("sessionUser")) return undefined;
  const user = await app.sessionUser({ headers } as unknown as FastifyRequest).catch(() => null);
  return user
    ? {
        userId: user.id.toString(),
        mode: user.mode,
        sessionTokenHash: user.sessionTokenHash,
        ...(user.sessionExpiresAtMs === undefined
          ? {}
          : { sessionEndsAtMs: user.sessionExpiresAtMs }),
      }
    : undefined;
}
