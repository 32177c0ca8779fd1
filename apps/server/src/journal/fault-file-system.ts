import path from "node:path";
import type { JournalFile, JournalFileSystem } from "./file-system.ts";

interface MemoryFile {
  /** What survives a crash. */
  durable: Buffer;
  /** What a reader sees now (durable plus writes not yet synced). */
  current: Buffer;
}

/** An errno-style error like node:fs raises. */
function fsError(code: string, message: string) {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/**
 * An in-memory file system for journal tests that models what a disk does on power loss and
 * can be told to fail: writes not yet fdatasync'ed are torn at a random byte by `crash()`,
 * `flipBit` damages stored bytes, `failSyncs` makes fdatasync fail (EIO), `capacityBytes` makes
 * writes beyond it fail with ENOSPC, and `holdSyncs` keeps fdatasync from returning.
 */
export class FaultFileSystem implements JournalFileSystem {
  private files = new Map<string, MemoryFile>();
  private directories = new Set<string>();
  failSyncs = false;
  capacityBytes = Number.POSITIVE_INFINITY;
  private held: (() => void)[] | undefined;
  syncCount = 0;

  async mkdirp(directory: string) {
    this.directories.add(path.resolve(directory));
  }

  async list(directory: string) {
    const resolved = path.resolve(directory);
    return [...this.files.keys()]
      .filter((file) => path.dirname(file) === resolved)
      .map((file) => path.basename(file))
      .sort();
  }

  async readFile(file: string) {
    const entry = this.files.get(path.resolve(file));
    if (!entry) throw fsError("ENOENT", file);
    return Buffer.from(entry.current);
  }

  async readRange(file: string, position: number, length: number) {
    const content = await this.readFile(file);
    return content.subarray(position, position + length);
  }

  async openForAppend(file: string): Promise<JournalFile> {
    const key = path.resolve(file);
    if (!this.files.has(key))
      this.files.set(key, { durable: Buffer.alloc(0), current: Buffer.alloc(0) });
    return {
      write: async (bytes, position) => {
        const entry = this.entry(key);
        const end = position + bytes.length;
        if (
          this.usedBytes() - entry.current.length + Math.max(end, entry.current.length) >
          this.capacityBytes
        ) {
          // A real disk may have written part of it: keep a prefix, as ENOSPC can.
          const room = Math.max(
            0,
            this.capacityBytes - (this.usedBytes() - entry.current.length) - position,
          );
          entry.current = grow(entry.current, position, Buffer.from(bytes).subarray(0, room));
          throw fsError("ENOSPC", "no space left on device");
        }
        entry.current = grow(entry.current, position, Buffer.from(bytes));
      },
      datasync: async () => {
        if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
        if (this.failSyncs) throw fsError("EIO", "fsync failed");
        const entry = this.entry(key);
        entry.durable = Buffer.from(entry.current);
        this.syncCount += 1;
      },
      close: async () => {},
    };
  }

  async truncate(file: string, length: number) {
    const entry = this.entry(path.resolve(file));
    entry.current = Buffer.from(entry.current.subarray(0, length));
    // Truncation at recovery is followed by the journal's own sync; model it as durable.
    entry.durable = Buffer.from(entry.durable.subarray(0, length));
  }

  async rename(source: string, target: string) {
    const entry = this.entry(path.resolve(source));
    this.files.delete(path.resolve(source));
    this.files.set(path.resolve(target), entry);
  }

  async remove(file: string) {
    this.files.delete(path.resolve(file));
  }

  async syncDirectory() {}

  /** Stops fdatasync from returning until `releaseSyncs`. */
  holdSyncs() {
    this.held ??= [];
  }

  releaseSyncs() {
    const held = this.held ?? [];
    this.held = undefined;
    for (const resolve of held) resolve();
  }

  /**
   * Power loss: every file keeps its durable bytes plus a random prefix (cut at a random byte)
   * of what was written after its last sync. Returns a new file system with that content.
   */
  crash(random: () => number): FaultFileSystem {
    const after = new FaultFileSystem();
    for (const [file, entry] of this.files) {
      let kept = entry.durable;
      if (entry.current.length > entry.durable.length) {
        const extra = entry.current.length - entry.durable.length;
        const cut = Math.floor(random() * (extra + 1));
        kept = Buffer.from(entry.current.subarray(0, entry.durable.length + cut));
      }
      after.files.set(file, { durable: Buffer.from(kept), current: Buffer.from(kept) });
    }
    return after;
  }

  /** Flips one bit of a stored file, in both its durable and current content. */
  flipBit(file: string, byteOffset: number, bit = 0) {
    const entry = this.entry(path.resolve(file));
    for (const content of [entry.current, entry.durable]) {
      if (byteOffset < content.length) content[byteOffset]! ^= 1 << bit;
    }
  }

  size(file: string) {
    return this.entry(path.resolve(file)).current.length;
  }

  private usedBytes() {
    let total = 0;
    for (const entry of this.files.values()) total += entry.current.length;
    return total;
  }

  private entry(key: string) {
    const entry = this.files.get(key);
    if (!entry) throw fsError("ENOENT", key);
    return entry;
  }
}

function grow(content: Buffer, position: number, bytes: Buffer) {
  const length = Math.max(content.length, position + bytes.length);
  const next = Buffer.alloc(length);
  content.copy(next);
  bytes.copy(next, position);
  return next;
}
