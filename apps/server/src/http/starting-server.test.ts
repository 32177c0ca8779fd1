import { afterEach, describe, expect, it } from "vitest";
import { listenWhileStarting, type StartingServer } from "./starting-server.ts";

describe("the starting server", () => {
  let starting: StartingServer | undefined;
  afterEach(async () => {
    const server = starting?.server;
    starting = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  it("answers 503 with Retry-After in the request's language until the app takes over", async () => {
    starting = await listenWhileStarting({ port: 0, host: "127.0.0.1" });
    expect(starting.ready).toBe(false);
    const refused = await fetch(`${starting.url}/api/v1/spot/orders`, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-language": "de-CH,de;q=0.9" },
      body: JSON.stringify({ instrumentId: "BTCUSDT" }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({
      code: 503,
      message: "Der Dienst ist vorübergehend nicht verfügbar",
      data: null,
      error: "service_unavailable",
    });
    const english = await fetch(`${starting.url}/api/v1/health`);
    expect(english.status).toBe(503);
    expect(((await english.json()) as { message: string }).message).toBe(
      "The service is temporarily unavailable",
    );

    starting.handOver((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("served by the app");
    });
    expect(starting.ready).toBe(true);
    const served = await fetch(`${starting.url}/api/v1/health`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe("served by the app");
  });
});
