import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import pg from "pg";

/** A second server on the same data: the message names the holder; the process must stop. */
export class WriterLockedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WriterLockedError";
  }
}

/** What the lock file holds: who owns the data folder. */
interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
}

/** Name of the lock file in `DATA_DIR`. */
export const lockFileName = "candor.lock";

/** Whether a process with this id runs on this machine (EPERM: it runs, as another user). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the data folder for this process: creates `DATA_DIR/candor.lock` exclusively (`wx`)
 * with this pid. A lock left by a process that no longer runs on this host (a SIGKILL, a power
 * cut) is stale and taken over; a live holder makes this throw `WriterLockedError` naming it.
 * Two servers on one folder would interleave journal segments and break the hash chain
 * (issue 14 item 10). `release()` removes the file if it is still ours; it also runs at exit.
 */
export function lockDataDir(dataDir: string, pid = process.pid): { release(): void } {
  const file = path.join(dataDir, lockFileName);
  const owner: LockOwner = { pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, JSON.stringify(owner));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 0) throw error;
    }
    let holder: Partial<LockOwner> = {};
    try {
      holder = JSON.parse(readFileSync(file, "utf8")) as Partial<LockOwner>;
    } catch {
      // Unreadable or half-written: its writer died between create and write; stale.
    }
    const live =
      typeof holder.pid === "number" &&
      (holder.host !== owner.host || processAlive(holder.pid)) &&
      holder.pid !== pid;
    if (live) {
      throw new WriterLockedError(
        `data folder ${dataDir} is in use by another Candor server (pid ${holder.pid} on ` +
          `${holder.host}, since ${holder.startedAt}); stop it first, or remove ${file} if ` +
          `that process is gone`,
      );
    }
    rmSync(file, { force: true });
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    try {
      const holder = JSON.parse(readFileSync(file, "utf8")) as Partial<LockOwner>;
      if (holder.pid === pid && holder.startedAt === owner.startedAt) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
  process.on("exit", release);
  return { release };
}

/**
 * Takes the PostgreSQL journal of `schema` for this process: a session-level advisory lock on
 * a connection of its own, held until `release()` or the process ends (PostgreSQL frees it
 * when the connection drops, so a killed server never leaves it behind). A second server on
 * the same schema gets `WriterLockedError` naming the holder's backend.
 */
export async function lockPgJournal(
  url: string,
  schema: string | undefined,
): Promise<{ release(): Promise<void> }> {
  const key = `candor:journal:${schema ?? "public"}`;
  // The holder's name, as the next server reads it from pg_stat_activity (63 bytes at most).
  const name = `candor ${process.pid}@${hostname()}`.slice(0, 63);
  const client = new pg.Client({ connectionString: url, application_name: name });
  await client.connect();
  // Without this, an idle connection error would crash the process with an unhandled event.
  client.on("error", () => {});
  const taken = await client.query<{ ok: boolean }>(
    "SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok",
    [key],
  );
  if (!taken.rows[0]?.ok) {
    // The holder: a backend of this database holding an advisory lock, named by its server.
    const holder = await client.query<{ name: string; since: Date }>(
      `SELECT a.application_name AS name, a.backend_start AS since
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND a.pid <> pg_backend_pid()
          AND a.datname = current_database() AND a.application_name LIKE 'candor %'
        ORDER BY a.backend_start LIMIT 1`,
    );
    await client.end();
    const row = holder.rows[0];
    throw new WriterLockedError(
      `the PostgreSQL journal of schema "${schema ?? "public"}" is in use by another Candor ` +
        `server${row ? ` (${row.name}, since ${row.since.toISOString()})` : ""}; stop it first`,
    );
  }
  return {
    async release() {
      await client.end().catch(() => {});
    },
  };
}
