import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolveLocale } from "@candor/contract/locales";
import { errorMessage } from "@candor/contract/messages";

/** Seconds a client is told to wait before retrying while the server starts. */
export const startingRetryAfterS = 1;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** An HTTP server that listens before the app is built and hands its requests over later. */
export interface StartingServer {
  server: Server;
  /** `http://host:port` as bound (the port resolved when 0 was asked for). */
  url: string;
  /**
   * From now on requests go to `handler` (the app's). Pass it as Fastify's `serverFactory`
   * so the app serves on this already-listening server.
   */
  handOver(handler: Handler): void;
  /** Whether the app took over. */
  readonly ready: boolean;
}

/**
 * Listens at once and answers every request `503 service_unavailable` with `Retry-After`
 * until the app takes over (`handOver`). A restart replays the journal and opens the
 * database before it can serve; meanwhile clients get an answer they can act on instead of a
 * refused connection. WebSocket upgrades are refused (no `upgrade` listener closes them) and
 * reconnect. This file imports as little as possible so the port opens within a second.
 */
export async function listenWhileStarting(options: {
  port: number;
  host: string;
}): Promise<StartingServer> {
  let handler: Handler | undefined;
  const server = createServer((request, response) => {
    if (handler) {
      handler(request, response);
      return;
    }
    answerStarting(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host}:${address.port}`,
    handOver(next) {
      handler = next;
    },
    get ready() {
      return handler !== undefined;
    },
  };
}

/** The answer while starting: the error envelope in the request's language. */
export function answerStarting(request: IncomingMessage, response: ServerResponse): void {
  const xLang = request.headers["x-lang"];
  const lang = /[?&]lang=([A-Za-z-]{2,10})(?:&|$)/.exec(request.url ?? "")?.[1];
  const locale = resolveLocale(
    (Array.isArray(xLang) ? xLang[0] : xLang) ?? lang,
    request.headers["accept-language"],
  );
  const body = JSON.stringify({
    code: 503,
    message: errorMessage(locale, "service_unavailable"),
    data: null,
    error: "service_unavailable",
  });
  // The body is not read: drain it so the connection can be reused.
  request.resume();
  response.writeHead(503, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    "retry-after": String(startingRetryAfterS),
    "cache-control": "no-store",
  });
  response.end(body);
}
