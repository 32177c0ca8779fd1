import { createHash } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { crc32c } from "./crc32c.ts";
import { GroupCommitter, type EncodedBatch } from "./group-commit.ts";
import { nodeFileSystem, type JournalFile, type JournalFileSystem } from "./file-system.ts";
import {
  chainHash,
  decodeRecord,
  JournalCorruptionError,
  recordHeaderBytes,
  silentLogger,
  zeroHash,
  type GroupCommitOptions,
  type Journal,
  type JournalFatalHandler,
  type JournalLogger,
  type JournalArchiveReport,
  type JournalRecord,
} from "./journal.ts";

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/*
 * Segment files `<first sequence, 20 digits>.seg` hold frames, one per committed batch:
 *   magic u32 "CJRN" · headerCrc u32 (CRC-32C of bytes 8..88) · firstSequence u64 · count u32 ·
 *   bodyBytes u32 · previousHash [32] · hash [32] · then `count` records (see journal.ts).
 * A frame never spans two segments.
 */
const frameMagic = 0x4e524a43;
export const frameHeaderBytes = 88;
const segmentPattern = /^(\d{20})\.seg$/;
const manifestPattern = /^(\d{20})\.seg\.json$/;
/** Folder (inside the journal's) of the compressed sealed segments. */
export const archiveFolder = "archive";

/*
 * Archive: a sealed segment whose records are all held by a snapshot is gzip-compressed into
 * `archive/<name>.gz` (the segment's exact bytes: `gunzip` gives the segment back) with a manifest
 * `archive/<name>.json` naming its sequences, the chain hash into and out of it and the SHA-256 of
 * its bytes. Start-up links the chain through the manifests without decompressing; reading a
 * range inside the archive decompresses the segment and checks every frame as for a live one.
 * Only once the archive copy is durable and reads back identical is the live segment removed: no
 * record is ever deleted.
 */
interface ArchiveManifest {
  format: 1;
  segment: string;
  firstSequence: string;
  lastSequence: string;
  /** Chain hash (hex) before the segment's first frame and after its last one. */
  previousHash: string;
  hash: string;
  bytes: number;
  compressedBytes: number;
  /** SHA-256 (hex) of the uncompressed segment bytes. */
  sha256: string;
}

export interface FileJournalOptions extends GroupCommitOptions {
  /** Folder of the segment files, e.g. `DATA_DIR/journal`. */
  directory: string;
  onFatal: JournalFatalHandler;
  logger?: JournalLogger;
  /** A new segment starts when the current one would grow past this. */
  segmentBytesMax?: number;
  /** For fault-injection tests; defaults to node:fs. */
  fileSystem?: JournalFileSystem;
}

interface FrameIndex {
  offset: number;
  firstSequence: bigint;
  count: number;
  bodyBytes: number;
}

interface Segment {
  name: string;
  path: string;
  firstSequence: bigint;
  size: number;
  frames: FrameIndex[];
  /** Chain hash before the segment's first frame and after its last one. */
  previousHash: Buffer;
  hash: Buffer;
  /** Set once the segment lives compressed in the archive (then `frames` is empty). */
  archived?: ArchiveManifest;
  /**
   * The segment's bytes `[0, size at open)` as the open read and checked them (CRCs, hash chain,
   * sequences), kept for the first read after the open (a start-up replay) so it neither reads
   * nor checks them a second time; dropped once read. Only the newest segments, up to
   * `checkedBytesKeptMax` in all.
   */
  checked?: Buffer;
}

/** Most bytes of checked segments the open keeps in memory for the replay that follows it. */
const checkedBytesKeptMax = 64 * 1024 * 1024;
/** Records per run when reading kept bytes (bounds the run's array, not the bytes). */
const keptRunRecords = 8_192;

function lastSequenceOf(segment: Segment) {
  if (segment.archived) return BigInt(segment.archived.lastSequence);
  const last = segment.frames[segment.frames.length - 1];
  return last ? last.firstSequence + BigInt(last.count) - 1n : segment.firstSequence - 1n;
}

export function segmentName(firstSequence: bigint) {
  return `${firstSequence.toString().padStart(20, "0")}.seg`;
}

/**
 * Opens (and recovers) the segment-file journal: every frame is checked; a torn frame at the
 * very end of the last segment is cut off (and logged); any other damage stops with a
 * `JournalCorruptionError` naming the segment and byte offset.
 */
/** Most bytes `read` takes from a segment in one read (whole frames; a larger frame alone). */
const readChunkBytes = 8 * 1024 * 1024;

export async function openFileJournal(options: FileJournalOptions): Promise<Journal> {
  const fileSystem = options.fileSystem ?? nodeFileSystem;
  const logger = options.logger ?? silentLogger;
  const segmentBytesMax = options.segmentBytesMax ?? 64 * 1024 * 1024;
  await fileSystem.mkdirp(options.directory);
  const archiveDirectory = path.join(options.directory, archiveFolder);
  const names = (await fileSystem.list(options.directory))
    .filter((n) => segmentPattern.test(n))
    .sort();
  // A segment both live and archived (a crash between writing the archive and removing the live
  // file) is read live; the archive copy is rewritten the next time.
  const manifests = (await loadManifests(fileSystem, archiveDirectory)).filter(
    (manifest) => !names.includes(manifest.segment),
  );

  const segments: Segment[] = [];
  let expectedSequence = 1n;
  let hash: Buffer = zeroHash;
  // Archived and live segments in sequence order (their names are their first sequences).
  const entries = [
    ...manifests.map((manifest) => ({ name: manifest.segment, manifest })),
    ...names.map((name) => ({ name, manifest: undefined })),
  ].sort((x, y) => (x.name < y.name ? -1 : 1));
  const lastLive = names[names.length - 1];
  for (const { name, manifest } of entries) {
    if (manifest) {
      if (BigInt(manifest.firstSequence) !== expectedSequence) {
        throw new JournalCorruptionError(
          `${archiveFolder}/${manifest.segment}`,
          0,
          `archived segment starts at ${manifest.firstSequence}, expected ${expectedSequence}`,
        );
      }
      if (manifest.previousHash !== hash.toString("hex")) {
        throw new JournalCorruptionError(
          `${archiveFolder}/${manifest.segment}`,
          0,
          "hash chain broken: archived segment's previous hash differs",
        );
      }
      segments.push({
        name: manifest.segment,
        path: path.join(archiveDirectory, `${manifest.segment}.gz`),
        firstSequence: expectedSequence,
        size: manifest.bytes,
        frames: [],
        previousHash: hash,
        hash: Buffer.from(manifest.hash, "hex"),
        archived: manifest,
      });
      expectedSequence = BigInt(manifest.lastSequence) + 1n;
      hash = Buffer.from(manifest.hash, "hex");
      continue;
    }
    const file = path.join(options.directory, name);
    const isLast = name === lastLive;
    const bytes = await fileSystem.readFile(file);
    const segment: Segment = {
      name,
      path: file,
      firstSequence: BigInt(segmentPattern.exec(name)![1]!),
      size: 0,
      frames: [],
      previousHash: hash,
      hash,
    };
    if (segment.firstSequence !== expectedSequence && bytes.length > 0) {
      throw new JournalCorruptionError(
        name,
        0,
        `segment starts at ${segment.firstSequence}, expected ${expectedSequence}`,
      );
    }
    let offset = 0;
    while (offset < bytes.length) {
      const frame = checkFrame(bytes, offset, name, expectedSequence, hash);
      if (frame.kind === "torn") {
        if (!isLast)
          throw new JournalCorruptionError(name, offset, `${frame.detail} before the last segment`);
        logger.warn(
          { segment: name, offset, droppedBytes: bytes.length - offset },
          `journal: torn tail cut back to the last complete record (${frame.detail})`,
        );
        await fileSystem.truncate(file, offset);
        break;
      }
      segment.frames.push({
        offset,
        firstSequence: expectedSequence,
        count: frame.count,
        bodyBytes: frame.bodyBytes,
      });
      expectedSequence += BigInt(frame.count);
      hash = frame.hash;
      offset = frame.end;
    }
    segment.size = offset;
    segment.hash = hash;
    if (offset > 0) segment.checked = bytes.subarray(0, offset);
    segments.push(segment);
  }
  // Keep the checked bytes of the newest segments only (a replay starts after the snapshot).
  let checkedKept = 0;
  for (let i = segments.length - 1; i >= 0; i--) {
    const checked = segments[i]!.checked;
    if (checked === undefined) continue;
    if (checkedKept + checked.length > checkedBytesKeptMax) segments[i]!.checked = undefined;
    else checkedKept += checked.length;
  }

  let current: { segment: Segment; file: JournalFile } | undefined;
  const last = segments[segments.length - 1];
  if (last && !last.archived)
    current = { segment: last, file: await fileSystem.openForAppend(last.path) };

  const write = async (batch: EncodedBatch) => {
    const { buffer } = batch;
    buffer.writeUInt32LE(frameMagic, 0);
    buffer.writeBigUInt64LE(batch.firstSequence, 8);
    buffer.writeUInt32LE(batch.count, 16);
    buffer.writeUInt32LE(buffer.length - frameHeaderBytes, 20);
    batch.previousHash.copy(buffer, 24);
    batch.hash.copy(buffer, 56);
    buffer.writeUInt32LE(crc32c(buffer, 8, frameHeaderBytes), 4);
    if (
      !current ||
      (current.segment.size > 0 && current.segment.size + buffer.length > segmentBytesMax)
    ) {
      if (current) await current.file.close();
      const name = segmentName(batch.firstSequence);
      const segment: Segment = {
        name,
        path: path.join(options.directory, name),
        firstSequence: batch.firstSequence,
        size: 0,
        frames: [],
        previousHash: batch.previousHash,
        hash: batch.previousHash,
      };
      current = { segment, file: await fileSystem.openForAppend(segment.path) };
      await fileSystem.syncDirectory(options.directory);
      segments.push(segment);
    }
    const { segment, file } = current;
    await file.write(buffer, segment.size);
    await file.datasync();
    segment.frames.push({
      offset: segment.size,
      firstSequence: batch.firstSequence,
      count: batch.count,
      bodyBytes: buffer.length - frameHeaderBytes,
    });
    segment.size += buffer.length;
    segment.hash = batch.hash;
  };

  const committer = new GroupCommitter(
    options,
    frameHeaderBytes,
    { sequence: expectedSequence - 1n, hash },
    write,
    options.onFatal,
    // `write` is done with the batch's buffer when it resolves: the bytes are in the page cache.
    true,
    // SHA-256 of large batches in the thread pool; `write` overwrites the frame header, where
    // the previous hash is placed for the digest.
    true,
  );
  logger.info(
    { head: (expectedSequence - 1n).toString(), segments: segments.length },
    "journal: opened",
  );

  async function* read(from: bigint, to?: bigint): AsyncIterable<JournalRecord> {
    for await (const run of readRuns(from, to)) yield* run;
  }

  /** Checked records, one run per read of up to `readChunkBytes` of whole frames. */
  let readers = 0;
  async function* readRuns(from: bigint, to?: bigint): AsyncIterable<JournalRecord[]> {
    readers += 1;
    try {
      yield* readRunsOf(from, to);
    } finally {
      readers -= 1;
    }
  }

  async function* readRunsOf(from: bigint, to?: bigint): AsyncIterable<JournalRecord[]> {
    const last = to ?? committer.durableSequence;
    const end = last < committer.durableSequence ? last : committer.durableSequence;
    // The bytes the open checked go to the first read only (then they are garbage).
    const checkedOf = new Map<Segment, Buffer>();
    for (const segment of segments) {
      if (segment.checked === undefined) continue;
      checkedOf.set(segment, segment.checked);
      segment.checked = undefined;
    }
    for (const segment of [...segments]) {
      if (lastSequenceOf(segment) < from || segment.firstSequence > end) continue;
      if (segment.archived) {
        yield* readArchived(segment, segment.archived, from, end);
        continue;
      }
      const frames = segment.frames.filter(
        (frame) =>
          frame.firstSequence + BigInt(frame.count) - 1n >= from && frame.firstSequence <= end,
      );
      // Frames the open checked and kept: their records, without a second read and check.
      const checked = checkedOf.get(segment);
      let first = 0;
      if (checked !== undefined) {
        let run: JournalRecord[] = [];
        for (; first < frames.length; first++) {
          const frame = frames[first]!;
          if (frame.offset + frameHeaderBytes + frame.bodyBytes > checked.length) break;
          keptRecords(checked, frame, from, end, run);
          if (run.length >= keptRunRecords) {
            yield run;
            run = [];
          }
        }
        if (run.length > 0) yield run;
      }
      // Frames are contiguous in the file: read up to `readChunkBytes` of them at once (one
      // read per chunk, not per frame: live batches are small, and replay after a restart
      // went one system call per frame).
      for (; first < frames.length;) {
        const chunkStart = frames[first]!.offset;
        let last = first;
        while (
          last + 1 < frames.length &&
          frames[last + 1]!.offset + frameHeaderBytes + frames[last + 1]!.bodyBytes - chunkStart <=
            readChunkBytes
        ) {
          last += 1;
        }
        const lastFrame = frames[last]!;
        const bytes = await fileSystem.readRange(
          segment.path,
          chunkStart,
          lastFrame.offset + frameHeaderBytes + lastFrame.bodyBytes - chunkStart,
        );
        const run: JournalRecord[] = [];
        for (let i = first; i <= last; i++) {
          const frame = frames[i]!;
          const at = frame.offset - chunkStart;
          const checked = checkFrame(
            bytes,
            at,
            segment.name,
            frame.firstSequence,
            bytes.subarray(at + 24, at + 56),
            chunkStart,
          );
          if (checked.kind !== "frame") {
            throw new JournalCorruptionError(segment.name, frame.offset, checked.detail);
          }
          for (const record of checked.records) {
            if (record.sequence >= from && record.sequence <= end) run.push(record);
          }
        }
        if (run.length > 0) yield run;
        first = last + 1;
      }
    }
  }

  /** Decompresses an archived segment and checks every frame as it goes. */
  async function* readArchived(
    segment: Segment,
    manifest: ArchiveManifest,
    from: bigint,
    end: bigint,
  ): AsyncIterable<JournalRecord[]> {
    const name = `${archiveFolder}/${manifest.segment}`;
    const bytes = await gunzipAsync(await fileSystem.readFile(segment.path)).catch(
      (error: unknown) => {
        throw new JournalCorruptionError(name, 0, `cannot decompress: ${String(error)}`);
      },
    );
    if (createHash("sha256").update(bytes).digest("hex") !== manifest.sha256) {
      throw new JournalCorruptionError(name, 0, "archived segment differs from its manifest");
    }
    let offset = 0;
    let sequence = segment.firstSequence;
    let previous = segment.previousHash;
    let run: JournalRecord[] = [];
    while (offset < bytes.length) {
      const checked = checkFrame(bytes, offset, name, sequence, previous);
      if (checked.kind !== "frame") throw new JournalCorruptionError(name, offset, checked.detail);
      for (const record of checked.records) {
        if (record.sequence >= from && record.sequence <= end) run.push(record);
      }
      if (run.length >= 4_096) {
        yield run;
        run = [];
      }
      sequence += BigInt(checked.count);
      previous = checked.hash;
      offset = checked.end;
      if (sequence > end) break;
    }
    if (run.length > 0) yield run;
  }

  let archiving: Promise<JournalArchiveReport> | undefined;
  /**
   * Compresses every sealed segment whose last record is at or before `sequence` into the
   * archive. Skipped (nothing archived) while a read is under way: a reader may be about to open
   * a live segment file.
   */
  function archiveThrough(sequence: bigint): Promise<JournalArchiveReport> {
    archiving ??= archiveSealed(sequence).finally(() => (archiving = undefined));
    return archiving;
  }

  async function archiveSealed(sequence: bigint): Promise<JournalArchiveReport> {
    const report: JournalArchiveReport = { segments: 0, bytes: 0, compressedBytes: 0 };
    if (readers > 0) return report;
    for (const segment of [...segments]) {
      if (segment === current?.segment) break; // the segment being written is never sealed
      if (segment.archived || lastSequenceOf(segment) > sequence || segment.size === 0) continue;
      if (readers > 0) break;
      const manifest = await writeArchive(segment);
      // A read that began meanwhile may be about to open the live file: keep it this time (the
      // archive copy is rewritten on the next call). Checked and switched with no await between,
      // so every later read goes to the archive.
      if (readers > 0) break;
      const live = segment.path;
      segment.archived = manifest;
      segment.path = path.join(archiveDirectory, `${segment.name}.gz`);
      segment.frames = [];
      segment.checked = undefined;
      await fileSystem.remove(live);
      await fileSystem.syncDirectory(options.directory);
      report.segments += 1;
      report.bytes += manifest.bytes;
      report.compressedBytes += manifest.compressedBytes;
    }
    if (report.segments > 0) logger.info(report, "journal: sealed segments archived");
    return report;
  }

  /** Writes a segment's compressed copy and manifest durably and checks it reads back. */
  async function writeArchive(segment: Segment): Promise<ArchiveManifest> {
    const bytes = (await fileSystem.readFile(segment.path)).subarray(0, segment.size);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const compressed = await gzipAsync(bytes, { level: 6 });
    const manifest: ArchiveManifest = {
      format: 1,
      segment: segment.name,
      firstSequence: segment.firstSequence.toString(),
      lastSequence: lastSequenceOf(segment).toString(),
      previousHash: segment.previousHash.toString("hex"),
      hash: segment.hash.toString("hex"),
      bytes: bytes.length,
      compressedBytes: compressed.length,
      sha256,
    };
    await fileSystem.mkdirp(archiveDirectory);
    const target = path.join(archiveDirectory, `${segment.name}.gz`);
    await writeDurably(fileSystem, target, compressed);
    const back = await gunzipAsync(await fileSystem.readFile(target));
    if (createHash("sha256").update(back).digest("hex") !== sha256) {
      throw new Error(`journal: archive of ${segment.name} does not read back identical`);
    }
    // The manifest last: a segment counts as archived only once its compressed copy is durable.
    await writeDurably(
      fileSystem,
      path.join(archiveDirectory, `${segment.name}.json`),
      Buffer.from(JSON.stringify(manifest)),
    );
    await fileSystem.syncDirectory(archiveDirectory);
    return manifest;
  }

  return {
    archiveThrough,
    append: (payload) => committer.append(payload),
    read,
    readRuns,
    get head() {
      return committer.durableSequence;
    },
    get headHash() {
      return committer.durableHash.toString("hex");
    },
    stats: () => committer.counters,
    async close() {
      await committer.close();
      await current?.file.close();
    },
  };
}

/** Writes a file under a temporary name, syncs it and renames it into place. */
async function writeDurably(fileSystem: JournalFileSystem, target: string, bytes: Uint8Array) {
  const temporary = `${target}.tmp`;
  await fileSystem.remove(temporary);
  const file = await fileSystem.openForAppend(temporary);
  try {
    await file.write(bytes, 0);
    await file.datasync();
  } finally {
    await file.close();
  }
  await fileSystem.rename(temporary, target);
}

/** The archive's manifests, by segment name; a manifest without its compressed file is an error. */
async function loadManifests(
  fileSystem: JournalFileSystem,
  directory: string,
): Promise<ArchiveManifest[]> {
  const files = await fileSystem.list(directory);
  const manifests: ArchiveManifest[] = [];
  for (const file of files.filter((name) => manifestPattern.test(name)).sort()) {
    const segment = file.slice(0, -".json".length);
    let manifest: ArchiveManifest;
    try {
      manifest = JSON.parse(
        (await fileSystem.readFile(path.join(directory, file))).toString("utf8"),
      ) as ArchiveManifest;
    } catch (error) {
      throw new JournalCorruptionError(`${archiveFolder}/${file}`, 0, String(error));
    }
    if (manifest.format !== 1 || manifest.segment !== segment) {
      throw new JournalCorruptionError(`${archiveFolder}/${file}`, 0, "unknown manifest");
    }
    if (!files.includes(`${segment}.gz`)) {
      throw new JournalCorruptionError(`${archiveFolder}/${file}`, 0, "compressed segment missing");
    }
    manifests.push(manifest);
  }
  return manifests;
}

type FrameCheck =
  | {
      kind: "frame";
      count: number;
      bodyBytes: number;
      hash: Buffer;
      end: number;
      records: JournalRecord[];
    }
  | { kind: "torn"; detail: string };

/**
 * Checks the frame at `offset`. A frame cut short by the end of the bytes (or an all-zero tail,
 * which a file system can leave after power loss) is "torn"; any other fault throws.
 */
function checkFrame(
  bytes: Buffer,
  offset: number,
  segment: string,
  expectedSequence: bigint,
  previousHash: Buffer,
  reportOffset = 0,
): FrameCheck {
  const at = (relative: number) => reportOffset + relative;
  if (bytes.length - offset < frameHeaderBytes) {
    return { kind: "torn", detail: "frame header cut short" };
  }
  if (isZero(bytes, offset)) return { kind: "torn", detail: "zero-filled tail" };
  if (bytes.readUInt32LE(offset) !== frameMagic) {
    throw new JournalCorruptionError(segment, at(offset), "bad frame marker");
  }
  if (bytes.readUInt32LE(offset + 4) !== crc32c(bytes, offset + 8, offset + frameHeaderBytes)) {
    throw new JournalCorruptionError(segment, at(offset), "frame header checksum mismatch");
  }
  const firstSequence = bytes.readBigUInt64LE(offset + 8);
  const count = bytes.readUInt32LE(offset + 16);
  const bodyBytes = bytes.readUInt32LE(offset + 20);
  const bodyStart = offset + frameHeaderBytes;
  const end = bodyStart + bodyBytes;
  if (end > bytes.length) return { kind: "torn", detail: "frame body cut short" };
  if (firstSequence !== expectedSequence) {
    throw new JournalCorruptionError(
      segment,
      at(offset),
      `frame starts at sequence ${firstSequence}, expected ${expectedSequence}`,
    );
  }
  if (!bytes.subarray(offset + 24, offset + 56).equals(previousHash)) {
    throw new JournalCorruptionError(
      segment,
      at(offset),
      "hash chain broken: previous hash differs",
    );
  }
  const records: JournalRecord[] = [];
  let position = bodyStart;
  let sequence = firstSequence;
  while (position < end) {
    const record = decodeRecord(bytes, position, end);
    if (!record.ok) throw new JournalCorruptionError(segment, at(position), record.detail);
    if (record.sequence !== sequence) {
      throw new JournalCorruptionError(
        segment,
        at(position),
        `record sequence ${record.sequence}, expected ${sequence}`,
      );
    }
    records.push({ sequence: record.sequence, payload: record.payload });
    sequence += 1n;
    position = record.end;
  }
  if (records.length !== count) {
    throw new JournalCorruptionError(
      segment,
      at(offset),
      `frame holds ${records.length} records, header says ${count}`,
    );
  }
  const hash = chainHash(previousHash, bytes.subarray(bodyStart, end));
  if (!hash.equals(bytes.subarray(offset + 56, offset + 88))) {
    throw new JournalCorruptionError(segment, at(offset), "hash chain broken: frame hash differs");
  }
  return { kind: "frame", count, bodyBytes, hash, end, records };
}

/**
 * Appends to `run` the records in `[from, end]` of a frame the open checked (`checkFrame`) in
 * `bytes`, which have stayed in memory since: the CRCs and the hash chain are not checked again.
 */
function keptRecords(
  bytes: Buffer,
  frame: FrameIndex,
  from: bigint,
  end: bigint,
  run: JournalRecord[],
) {
  let position = frame.offset + frameHeaderBytes;
  let sequence = frame.firstSequence;
  for (let i = 0; i < frame.count; i++) {
    const payloadEnd = position + recordHeaderBytes + bytes.readUInt32LE(position + 4);
    if (sequence >= from && sequence <= end) {
      run.push({ sequence, payload: bytes.subarray(position + recordHeaderBytes, payloadEnd) });
    }
    position = payloadEnd;
    sequence += 1n;
  }
}

function isZero(bytes: Buffer, offset: number) {
  for (let i = offset; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}
