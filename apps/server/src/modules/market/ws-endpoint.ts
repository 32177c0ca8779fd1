import { wsClientMessageBytesMax, wsPath } from "@candor/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { WebSocketServer } from "ws";
import type { WsHub, WsIdentity } from "./ws-hub.ts";

/**
 * Serves the WebSocket protocol on `wsPath`: upgrades go to the hub, signed in by the session
 * of the upgrade request (cookie or Authorization header). Unless the hub already checks `auth`
 * tokens, they are checked against the app's sessions too.
 */
export function attachWebSocket(
  app: FastifyInstance,
  hub: WsHub,
  options: { hubAuthenticates: boolean },
): void {
  const wss = new WebSocketServer({ noServer: true, maxPayload: wsClientMessageBytesMax });
  app.server.on("upgrade", (request, socket, head) => {
    const path = (request.url ?? "").split("?")[0];
    if (path !== wsPath) {
      socket.destroy();
      return;
    }
    void identityOf(app, request.headers).then((identity) => {
      wss.handleUpgrade(request, socket, head, (ws) => {
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

/** The signed-in user of an upgrade request or token, by the app's session lookup. */
async function identityOf(
  app: FastifyInstance,
  headers: Record<string, string | string[] | undefined>,
): Promise<WsIdentity | undefined> {
  if (!app.hasDecorator("sessionUser")) return undefined;
  const user = await app.sessionUser({ headers } as unknown as FastifyRequest).catch(() => null);
  return user ? { userId: user.id.toString(), mode: user.mode } : undefined;
}
