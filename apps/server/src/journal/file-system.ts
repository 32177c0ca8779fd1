import { close, closeSync, fdatasync, fsyncSync, openSync, writeSync } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, truncate } from "node:fs/promises";

/** An open file the journal appends to. */
export interface JournalFile {
  /** Must be done with `bytes` once the promise resolves: the journal reuses the buffer. */
  write(bytes: Uint8Array, position: number): Promise<void>;
  /** fdatasync: returns only when the written bytes are on stable storage. */
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The few file operations the journal and the snapshot store use. Production uses the real
 * file system; tests use `FaultFileSystem` to tear writes, flip bits and fail syncs.
 */
export interface JournalFileSystem {
  mkdirp(directory: string): Promise<void>;
  /** File names (not paths) in a directory; empty when it does not exist. */
  list(directory: string): Promise<string[]>;
  readFile(path: string): Promise<Buffer>;
  /** Up to `length` bytes from `position` (fewer at the end of the file). */
  readRange(path: string, position: number, length: number): Promise<Buffer>;
  /** Opens for writing at explicit positions, creating the file when missing. */
  openForAppend(path: string): Promise<JournalFile>;
  truncate(path: string, length: number): Promise<void>;
  rename(source: string, target: string): Promise<void>;
  remove(path: string): Promise<void>;
  /** Makes created, renamed and removed names in a directory durable. */
  syncDirectory(directory: string): Promise<void>;
}

/** The real file system through node:fs. */
export const nodeFileSystem: JournalFileSystem = {
  async mkdirp(directory) {
    await mkdir(directory, { recursive: true });
  },
  async list(directory) {
    try {
      return await readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  },
  readFile: (path) => readFile(path),
  async readRange(path, position, length) {
    const handle = await open(path, "r");
    try {
      const buffer = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    } finally {
      await handle.close();
    }
  },
  async openForAppend(path) {
    await (await open(path, "a")).close(); // create when missing
    const fd = openSync(path, "r+");
    return {
      async write(bytes, position) {
        // A synchronous write only copies into the page cache (tens of microseconds for a
        // batch); it saves a thread-pool round trip per batch. The sync below is the slow part.
        let written = 0;
        while (written < bytes.length) {
          written += writeSync(fd, bytes, written, bytes.length - written, position + written);
        }
      },
      datasync: () =>
        new Promise<void>((resolve, reject) =>
          fdatasync(fd, (error) => (error ? reject(error) : resolve())),
        ),
      close: () =>
        new Promise<void>((resolve, reject) =>
          close(fd, (error) => (error ? reject(error) : resolve())),
        ),
    };
  },
  truncate: (path, length) => truncate(path, length),
  rename: (source, target) => rename(source, target),
  async remove(path) {
    await rm(path, { force: true });
  },
  async syncDirectory(directory) {
    const fd = openSync(directory, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
};
