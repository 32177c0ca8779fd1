import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { lockDataDir, lockFileName, lockPgJournal, WriterLockedError } from "./writer-lock.ts";

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "candor-lock-"));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "console.log(process.pid)"]);
  return Number(child.stdout.toString().trim());
}

it("refuses a second holder while the first lives, naming it, and frees the folder on release", () => {
  const dir = folder();
  const first = lockDataDir(dir);
  const holder = JSON.parse(readFileSync(path.join(dir, lockFileName), "utf8"));
  expect(holder).toMatchObject({ pid: process.pid, host: hostname() });
  expect(() => lockDataDir(dir, process.pid + 1)).toThrow(WriterLockedError);
  expect(() => lockDataDir(dir, process.pid + 1)).toThrow(`pid ${process.pid}`);
  first.release();
  expect(existsSync(path.join(dir, lockFileName))).toBe(false);
  lockDataDir(dir, process.pid + 1).release();
});

it("takes over a stale lock left by a killed process, and an unreadable one", () => {
  const dir = folder();
  const file = path.join(dir, lockFileName);
  writeFileSync(file, JSON.stringify({ pid: deadPid(), host: hostname(), startedAt: "x" }));
  const taken = lockDataDir(dir);
  expect(JSON.parse(readFileSync(file, "utf8")).pid).toBe(process.pid);
  taken.release();
  writeFileSync(file, "");
  lockDataDir(dir).release();
});

it.runIf(process.env.DATABASE_URL)(
  "the PostgreSQL journal of a schema has one writer; the lock ends with its connection",
  async () => {
    const url = process.env.DATABASE_URL!;
    const schema = `lock_${process.pid}`;
    const first = await lockPgJournal(url, schema);
    await expect(lockPgJournal(url, schema)).rejects.toThrow(/in use by another Candor server/);
    const other = await lockPgJournal(url, `${schema}_other`);
    await other.release();
    await first.release();
    const again = await lockPgJournal(url, schema);
    await again.release();
  },
);
