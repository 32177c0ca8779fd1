// Renews a leader lease (`leader-lease.ts`) on a thread of its own. On the main thread a long
// synchronous stretch (building the app after a takeover, a burst of requests on a busy core)
// delayed renewals past the lease's TTL and deposed a healthy leader; here only a paused,
// killed or cut-off process stops renewing — which is what the lease is meant to detect.
// Plain JavaScript: a worker thread does not get the TypeScript loader of the main thread.
import { parentPort, workerData } from "node:worker_threads";
import { connect } from "nats";

/** @type {{ servers: string, bucket: string, key: string, value: Uint8Array, ttlMs: number, shared: SharedArrayBuffer }} */
const { servers, bucket, key, value, ttlMs, shared } = workerData;
// [0] valid until (ms since the epoch, high resolution), [1] revision, [2] state: 1 held, 2 lost.
const lease = new Float64Array(shared);
const nowMs = () => performance.timeOrigin + performance.now();
const connection = await connect({
  servers: servers.split(","),
  name: "candor-lease-keeper",
  maxReconnectAttempts: -1,
});
const kv = await connection.jetstream().views.kv(bucket, { bindOnly: true });
const renewEveryMs = Math.max(50, Math.floor(ttlMs / 3));

async function renew() {
  if (lease[2] !== 1) return;
  const sentAtMs = nowMs();
  try {
    lease[1] = await kv.update(key, value, lease[1]);
    lease[0] = sentAtMs + ttlMs;
  } catch (error) {
    // Refused: someone else wrote the key, the lease is gone. Any other error (a timeout) may
    // or may not have been written: try again while the lease is still valid.
    if (/wrong last sequence/i.test(String(error)) || nowMs() >= lease[0]) {
      lease[2] = 2;
      parentPort.postMessage({ lost: String(error) });
      return;
    }
  }
  if (nowMs() >= lease[0]) {
    lease[2] = 2;
    parentPort.postMessage({ lost: "the lease lapsed before it was renewed" });
    return;
  }
  setTimeout(() => void renew(), renewEveryMs);
}

parentPort.on("message", (message) => {
  if (message === "stop") {
    lease[2] = 2;
    void connection.close().then(() => parentPort.close());
  }
});
// At once: the thread may have taken a while to start.
void renew();
