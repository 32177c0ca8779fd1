import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A Linux network namespace made by a test (issue 25's partition test), with two veth pairs to
 * the machine's namespace: `nats` (cut by the test) and `client` (kept: the test still reaches
 * the isolated node's HTTP, as its clients would in a partition that only separates it from
 * NATS). Names carry the creating process's id and a random part, so parallel runs never meet
 * and a later run can remove what a killed one left behind. Needs root and iproute2.
 */
export interface NetworkNamespace {
  name: string;
  /** The machine's side of the `nats` link (a test-owned nats-server listens here). */
  natsHostAddress: string;
  /** The namespace's side of the `client` link (the isolated node listens here). */
  clientAddress: string;
  /** Takes the namespace's end of the `nats` link down: the partition. */
  cut(): void;
  /** Brings it up again: the partition heals. */
  heal(): void;
  /** Bytes the namespace's TCP sockets to `address` still hold unsent (`ss` Send-Q). */
  unsentBytes(address: string): number;
  /** The command line that runs `argv` inside the namespace. */
  exec(argv: string[]): string[];
  /** Deletes the links and the namespace (idempotent, never throws). */
  remove(): void;
}

const prefix = "candor-part-";

/** Why this machine cannot make namespaces, or undefined when it can. */
export function namespaceSkipReason(): string | undefined {
  if (process.platform !== "linux") return "network namespaces need Linux";
  if (process.getuid?.() !== 0) return "network namespaces need root (run the test as root)";
  const ip = spawnSync("ip", ["-V"], { encoding: "utf8" });
  if (ip.error || ip.status !== 0) return "the `ip` command (iproute2) is missing";
  return undefined;
}

function ip(args: string[]) {
  execFileSync("ip", args, { stdio: ["ignore", "ignore", "pipe"] });
}

/** Removes namespaces of this test whose creating process is gone (a run that was killed). */
function removeStale() {
  const listed = spawnSync("ip", ["netns", "list"], { encoding: "utf8" }).stdout ?? "";
  for (const line of listed.split("\n")) {
    const name = line.split(" ")[0] ?? "";
    const pid = Number(/^candor-part-(\d+)-/.exec(name)?.[1]);
    if (!pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      // Deleting the namespace deletes the veth ends inside it, and with them their peers.
      spawnSync("ip", ["netns", "delete", name]);
    }
  }
}

/** A free /29 of 10.200.0.0/13 (none of the machine's addresses in it). */
function freeSubnet(): [number, number, number] {
  const used = spawnSync("ip", ["-4", "-o", "addr"], { encoding: "utf8" }).stdout ?? "";
  for (;;) {
    const bytes = randomBytes(3);
    const subnet: [number, number, number] = [
      200 + (bytes[0]! % 8),
      bytes[1]!,
      (bytes[2]! % 32) * 8,
    ];
    if (!used.includes(`10.${subnet[0]}.${subnet[1]}.`)) return subnet;
  }
}

export function createNetworkNamespace(): NetworkNamespace {
  removeStale();
  const id = randomBytes(3).toString("hex");
  const name = `${prefix}${process.pid}-${id}`;
  // Interface names have at most 15 characters.
  const natsHost = `cn${id}n`;
  const clientHost = `cn${id}c`;
  const [a, b, c] = freeSubnet();
  const address = (last: number) => `10.${a}.${b}.${c + last}`;
  const natsHostAddress = address(1);
  const natsInside = address(2);
  const clientHostAddress = address(5);
  const clientAddress = address(6);
  const inside = (args: string[]) => ip(["netns", "exec", name, "ip", ...args]);
  const namespace: NetworkNamespace = {
    name,
    natsHostAddress,
    clientAddress,
    cut: () => inside(["link", "set", "nats0", "down"]),
    heal: () => inside(["link", "set", "nats0", "up"]),
    unsentBytes(target) {
      const listed = spawnSync(
        "ip",
        ["netns", "exec", name, "ss", "-tnH", "state", "all", "dst", target],
        { encoding: "utf8" },
      ).stdout;
      // Columns: State Recv-Q Send-Q Local Peer.
      return (listed ?? "")
        .split("\n")
        .filter(Boolean)
        .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[2] ?? 0), 0);
    },
    exec: (argv) => ["ip", "netns", "exec", name, ...argv],
    remove() {
      spawnSync("ip", ["link", "delete", natsHost]);
      spawnSync("ip", ["link", "delete", clientHost]);
      spawnSync("ip", ["netns", "delete", name]);
    },
  };
  try {
    ip(["netns", "add", name]);
    inside(["link", "set", "lo", "up"]);
    for (const [host, peer, hostAddress, peerAddress] of [
      [natsHost, "nats0", natsHostAddress, natsInside],
      [clientHost, "client0", clientHostAddress, clientAddress],
    ] as const) {
      ip(["link", "add", host, "type", "veth", "peer", "name", peer, "netns", name]);
      ip(["addr", "add", `${hostAddress}/30`, "dev", host]);
      ip(["link", "set", host, "up"]);
      inside(["addr", "add", `${peerAddress}/30`, "dev", peer]);
      inside(["link", "set", peer, "up"]);
    }
  } catch (error) {
    namespace.remove();
    throw error;
  }
  return namespace;
}

/** A nats-server with JetStream owned by a test: its own store, deleted by `stop`. */
export interface TestNats {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `nats-server -js` on `address` and a free port, storing under a temporary folder.
 * The machine's NATS listens on 127.0.0.1 only, which a namespace cannot reach; this one
 * listens on the machine's end of the namespace's link.
 */
export async function startTestNats(address: string): Promise<TestNats> {
  const binary = [
    process.env.NATS_SERVER_BIN,
    "/usr/sbin/nats-server",
    "/usr/bin/nats-server",
    "/usr/local/bin/nats-server",
  ].find((candidate) => candidate && existsSync(candidate));
  if (!binary) throw new Error("nats-server not found (set NATS_SERVER_BIN)");
  const storeDir = mkdtempSync(path.join(tmpdir(), "candor-nats-"));
  const child = spawn(binary, ["-js", "-sd", storeDir, "-a", address, "-p", "-1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening for client connections on [^\s]+:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`nats-server exited with ${code}:\n${output}`)));
    setTimeout(() => reject(new Error(`nats-server did not start:\n${output}`)), 10_000);
  });
  return {
    url: `nats://${address}:${port}`,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      }
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

/**
 * PostgreSQL for a process in a namespace: a Unix socket (file-system sockets are not bound to
 * a network namespace) that forwards to `DATABASE_URL`'s host and port. Returns the URL the
 * process uses (`?host=<folder>`, node-postgres's form for a socket folder) and a stop.
 */
export async function postgresSocket(url: string) {
  const target = new URL(url);
  const port = Number(target.port || 5432);
  const folder = mkdtempSync(path.join(tmpdir(), "candor-pg-"));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(port, target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) =>
    server.listen(path.join(folder, `.s.PGSQL.${port}`), resolve),
  );
  const inside = new URL(url);
  inside.hostname = "localhost";
  inside.searchParams.set("host", folder);
  return {
    url: inside.toString(),
    async stop() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
