import path from "node:path";
import { crc32c } from "./crc32c.ts";
import { GroupCommitter, type EncodedBatch } from "./group-commit.ts";
import { nodeFileSystem, type JournalFile, type JournalFileSystem } from "./file-system.ts";
import {
  chainHash,
  decodeRecord,
  JournalCorruptionError,
  silentLogger,
  zeroHash,
  type GroupCommitOptions,
  type Journal,
  type JournalFatalHandler,
  type JournalLogger,
  type JournalRecord,
} from "./journal.ts";

/*
 * Segment files `<first sequence, 20 digits>.seg` hold frames, one per committed batch:
 *   magic u32 "CJRN" · headerCrc u32 (CRC-32C of bytes 8..88) · firstSequence u64 · count u32 ·
 *   bodyBytes u32 · previousHash [32] · hash [32] · then `count` records (see journal.ts).
 * A frame never spans two segments.
 */
const frameMagic = 0x4e524a43;
export const frameHeaderBytes = 88;
const segmentPattern = /^(\d{20})\.seg$/;

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
  const names = (await fileSystem.list(options.directory))
    .filter((n) => segmentPattern.test(n))
    .sort();

  const segments: Segment[] = [];
  let expectedSequence = 1n;
  let hash: Buffer = zeroHash;
  for (const [index, name] of names.entries()) {
    const file = path.join(options.directory, name);
    const isLast = index === names.length - 1;
    const bytes = await fileSystem.readFile(file);
    const segment: Segment = {
      name,
      path: file,
      firstSequence: BigInt(segmentPattern.exec(name)![1]!),
      size: 0,
      frames: [],
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
    segments.push(segment);
  }

  let current: { segment: Segment; file: JournalFile } | undefined;
  const last = segments[segments.length - 1];
  if (last) current = { segment: last, file: await fileSystem.openForAppend(last.path) };

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
  };

  const committer = new GroupCommitter(
    options,
    frameHeaderBytes,
    { sequence: expectedSequence - 1n, hash },
    write,
    options.onFatal,
  );
  logger.info(
    { head: (expectedSequence - 1n).toString(), segments: segments.length },
    "journal: opened",
  );

  async function* read(from: bigint, to?: bigint): AsyncIterable<JournalRecord> {
    for await (const run of readRuns(from, to)) yield* run;
  }

  /** Checked records, one run per read of up to `readChunkBytes` of whole frames. */
  async function* readRuns(from: bigint, to?: bigint): AsyncIterable<JournalRecord[]> {
    const last = to ?? committer.durableSequence;
    const end = last < committer.durableSequence ? last : committer.durableSequence;
    for (const segment of [...segments]) {
      const frames = segment.frames.filter(
        (frame) =>
          frame.firstSequence + BigInt(frame.count) - 1n >= from && frame.firstSequence <= end,
      );
      // Frames are contiguous in the file: read up to `readChunkBytes` of them at once (one
      // read per chunk, not per frame: live batches are small, and replay after a restart
      // went one system call per frame).
      for (let first = 0; first < frames.length;) {
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

  return {
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

function isZero(bytes: Buffer, offset: number) {
  for (let i = offset; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}
