// W7: market-data fan-out. Tick and depth messages to 100, 1,000 and 5,000 subscribers through
// our hub (subscription lookup, per-connection send-queue bound, serialised once per message)
// against a bare `ws` broadcast of the same bytes to the same sockets, in the same run.
// Prints one JSON line per workload; `ratio` = hub throughput / bare throughput (goal ≥ 0.8).
import type { AddressInfo } from "node:net";
import { WebSocket, WebSocketServer } from "ws";
import { WsHub } from "../src/modules/market/ws-hub.ts";

const sizes = (process.argv[2] ? process.argv[2].split(",") : ["100", "1000", "5000"]).map(Number);
/** Deliveries (messages × subscribers) per measured pass. */
const deliveriesPerPass = 100_000;
const messagesPerRound = 10;
const passes = 5;

const tickMessage = {
  type: "ticker",
  stream: "ticker:BTCUSDT",
  data: {
    instrumentId: "BTCUSDT",
    last: "95012.34",
    open24h: "94210.00",
    high24h: "95500.12",
    low24h: "93990.55",
    volume24h: "20213.45678",
    changePercent24h: "0.85",
    lastAtMs: 1_763_892_000_000,
    marketOpen: true,
    source: "simulated",
  },
};
const depthMessage = {
  type: "depth_diff",
  stream: "depth:BTCUSDT:real",
  instrumentId: "BTCUSDT",
  sequence: 1001,
  previousSequence: 1000,
  bids: Array.from({ length: 6 }, (_, k) => [`${95010 - k}.00`, `0.${k + 1}2345`]),
  asks: Array.from({ length: 6 }, (_, k) => [`${95013 + k}.00`, `0.${k + 2}1234`]),
  atMs: 1_763_892_000_000,
};

async function main() {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hub = new WsHub({
    now: Date.now,
    validate: () => null,
    initialMessages: () => [],
    heartbeatMs: 3_600_000,
    // The bench publishes in rounds and waits for delivery, so queues stay small; keep the
    // production bound so the check is on the measured path.
    sendQueueBytesMax: 1024 * 1024,
  });

  const serverSockets: WebSocket[] = [];
  server.on("connection", (socket, request) => {
    serverSockets.push(socket);
    hub.attach(socket, { url: request.url });
  });

  let received = 0;
  let target = 0;
  let reached: (() => void) | undefined;
  const clients: WebSocket[] = [];

  async function connectUpTo(count: number) {
    while (clients.length < count) {
      const batch = Math.min(200, count - clients.length);
      await Promise.all(
        Array.from({ length: batch }, async () => {
          const client = new WebSocket(url, { perMessageDeflate: false });
          clients.push(client);
          await new Promise((resolve, reject) => {
            client.once("open", resolve);
            client.once("error", reject);
          });
          const subscribed = new Promise<void>((resolve) => {
            client.on("message", (data) => {
              const text = data.toString();
              if (text.startsWith('{"type":"subscribed"')) resolve();
              else if (!text.startsWith('{"type":"welcome"')) {
                received += 1;
                if (received >= target && reached) {
                  const done = reached;
                  reached = undefined;
                  done();
                }
              }
            });
          });
          client.send(
            JSON.stringify({
              op: "subscribe",
              channels: [
                { channel: "ticker", instrumentId: "BTCUSDT" },
                { channel: "depth", instrumentId: "BTCUSDT", mode: "real" },
              ],
            }),
          );
          await subscribed;
        }),
      );
    }
  }

  const waitFor = (count: number) =>
    new Promise<void>((resolve) => {
      target = count;
      if (received >= target) resolve();
      else reached = resolve;
    });

  /** Delivers `messages` messages to all `subscribers` in rounds; returns deliveries per second. */
  async function run(
    kind: "hub" | "bare",
    message: typeof tickMessage | typeof depthMessage,
    subscribers: number,
    messages: number,
  ): Promise<number> {
    const stream = message.stream;
    const sockets = serverSockets.slice(0, subscribers);
    received = 0;
    const started = process.hrtime.bigint();
    for (let sent = 0; sent < messages; sent += messagesPerRound) {
      for (let k = 0; k < messagesPerRound; k++) {
        if (kind === "hub") {
          hub.publish(stream, message);
        } else {
          // The bare peer: serialise once, send the same bytes to every socket.
          const bytes = Buffer.from(JSON.stringify(message));
          for (const socket of sockets) socket.send(bytes, { binary: false });
        }
      }
      await waitFor((sent + messagesPerRound) * subscribers);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return (messages * subscribers) / seconds;
  }

  for (const subscribers of sizes) {
    await connectUpTo(subscribers);
    // The hub sends only to subscribers of the stream; the bare peer to the same sockets.
    const messages =
      Math.max(messagesPerRound, Math.round(deliveriesPerPass / subscribers / messagesPerRound)) *
      messagesPerRound;
    for (const [name, message] of [
      ["tick", tickMessage],
      ["depth", depthMessage],
    ] as const) {
      await run("bare", message, subscribers, messagesPerRound); // warm-up
      await run("hub", message, subscribers, messagesPerRound);
      const hubRates: number[] = [];
      const bareRates: number[] = [];
      // Alternate which goes first, so warm-up and GC debt do not favour either.
      for (let p = 0; p < passes; p++) {
        if (p % 2 === 0) {
          bareRates.push(await run("bare", message, subscribers, messages));
          hubRates.push(await run("hub", message, subscribers, messages));
        } else {
          hubRates.push(await run("hub", message, subscribers, messages));
          bareRates.push(await run("bare", message, subscribers, messages));
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const hubRate = median(hubRates);
      const bareRate = median(bareRates);
      console.log(
        JSON.stringify({
          bench: "fanout",
          workload: `W7 ${name}`,
          subscribers,
          messages,
          messageBytes: Buffer.byteLength(JSON.stringify(message)),
          hubDeliveriesPerSecond: Math.round(hubRate),
          bareDeliveriesPerSecond: Math.round(bareRate),
          ratio: Number((hubRate / bareRate).toFixed(3)),
          hubRuns: hubRates.map(Math.round),
          bareRuns: bareRates.map(Math.round),
          slowConsumersClosed: hub.slowConsumersClosed,
        }),
      );
    }
  }
  for (const client of clients) client.terminate();
  hub.closeAll();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

await main();
