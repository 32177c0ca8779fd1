import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { UploadPurpose, UploadView } from "@candor/contract";
import type { FastifyReply } from "fastify";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import { FileReply } from "../../http/file-reply.ts";
import { cleanImage, type ImageLimits } from "./image.ts";
import { UploadsRepository, type UploadRow } from "./uploads.repository.ts";

/**
 * The CSP of a served upload: nothing but the image itself, no script, no plugin, no frame,
 * sandboxed so even a browser that sniffed it as a page could run nothing. (Here, not in the
 * routes file, so other modules that serve uploads, the support chat, use the same one.)
 */
export const uploadContentSecurityPolicy =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

/**
 * A stored image as the answer: its re-encoded type inline, the CSP above, no sniffing. Private
 * and never stored by caches unless the caller says otherwise (a shown banner's image).
 */
export function imageReply(
  reply: FastifyReply,
  file: StoredFile,
  cacheControl = "private, no-store",
): FileReply {
  reply.header("content-security-policy", uploadContentSecurityPolicy);
  reply.header("x-content-type-options", "nosniff");
  reply.header("cache-control", cacheControl);
  return new FileReply(file.upload.contentType, file.fileName, file.bytes, "inline");
}

/** Where uploads go and how large they may be. */
export interface UploadsOptions {
  database: Database;
  now: () => number;
  /** Folder of the stored files (UPLOADS_DIR, default DATA_DIR/uploads); never under the web root. */
  dir: string;
  limits: ImageLimits;
}

/** A stored file to send: the re-encoded bytes and what to call them. */
export interface StoredFile {
  upload: UploadRow;
  bytes: Buffer;
  /** A generated name: `<purpose>-<id>.<ext>`, nothing the client chose. */
  fileName: string;
}

/**
 * The safe upload pipeline (issue 16, reused by identity verification in issue 17): images are
 * checked by content and re-encoded (`image.ts`), written under a random name with owner-only
 * file permissions, and recorded with their owner and purpose. Files are read back only through
 * `forOwner` (the owner; anyone else sees "not found") or `forOperator`.
 */
export class UploadsService {
  private readonly repository: UploadsRepository;
  private ready: Promise<void> | undefined;

  constructor(private readonly options: UploadsOptions) {
    this.repository = new UploadsRepository(options.database);
  }

  get limits(): ImageLimits {
    return this.options.limits;
  }

  async store(ownerId: string, purpose: UploadPurpose, input: Buffer): Promise<UploadView> {
    const image = await cleanImage(input, this.options.limits);
    const id = randomBytes(16).toString("hex");
    this.ready ??= mkdir(this.options.dir, { recursive: true, mode: 0o700 }).then(() => {});
    await this.ready;
    const file = this.pathOf(id, image.contentType);
    // Written aside and renamed, so a reader never sees half a file; `wx` never overwrites.
    const temporary = `${file}.part`;
    await writeFile(temporary, image.bytes, { flag: "wx", mode: 0o600 });
    await rename(temporary, file);
    const row: UploadRow = {
      id,
      ownerId,
      purpose,
      contentType: image.contentType,
      byteSize: image.bytes.length,
      width: image.width,
      height: image.height,
      sha256: createHash("sha256").update(image.bytes).digest("hex"),
      createdAtMs: this.options.now(),
    };
    await this.repository.insert(row);
    return view(row);
  }

  /** An upload's record when `ownerId` owns it; undefined otherwise (as if it did not exist). */
  async ownedBy(id: string, ownerId: string): Promise<UploadRow | undefined> {
    const row = await this.repository.find(id);
    return row && row.ownerId === ownerId ? row : undefined;
  }

  /** An upload's record when it has `purpose`, whoever owns it; undefined otherwise. */
  async withPurpose(id: string, purpose: UploadPurpose): Promise<UploadRow | undefined> {
    const row = await this.repository.find(id);
    return row && row.purpose === purpose ? row : undefined;
  }

  async forOwner(id: string, ownerId: string): Promise<StoredFile> {
    const row = await this.ownedBy(id, ownerId);
    if (!row) throw new AppError("upload_not_found");
    return this.read(row);
  }

  async forOperator(id: string): Promise<StoredFile> {
    const row = await this.repository.find(id);
    if (!row) throw new AppError("upload_not_found");
    return this.read(row);
  }

  /**
   * Deletes one of `ownerId`'s uploads: its record (refused by the database while anything
   * still refers to it), then the file on disk, so it can never be served again (issue 17:
   * identity documents deleted by their owner). False when there was nothing of theirs to
   * delete. A file already gone from disk is not an error.
   */
  async remove(id: string, ownerId: string): Promise<boolean> {
    const row = await this.ownedBy(id, ownerId);
    if (!row) return false;
    await this.repository.delete(row.id);
    await rm(this.pathOf(row.id, row.contentType), { force: true });
    return true;
  }

  private async read(row: UploadRow): Promise<StoredFile> {
    // A file gone from disk (a lost backup) answers like a missing upload, not a 500.
    const bytes = await readFile(this.pathOf(row.id, row.contentType)).catch(() => undefined);
    if (!bytes) throw new AppError("upload_not_found");
    const hash = createHash("sha256").update(bytes).digest("hex");
    // A file changed on disk since it was checked is not served.
    if (hash !== row.sha256) throw new AppError("upload_not_found");
    const extension = row.contentType === "image/png" ? "png" : "jpg";
    return { upload: row, bytes, fileName: `${row.purpose}-${row.id}.${extension}` };
  }

  private pathOf(id: string, contentType: string): string {
    if (!/^[0-9a-f]{32}$/.test(id)) throw new AppError("upload_not_found");
    return path.join(this.options.dir, `${id}.${contentType === "image/png" ? "png" : "jpg"}`);
  }
}

export function view(row: UploadRow): UploadView {
  return {
    uploadId: row.id,
    purpose: row.purpose,
    contentType: row.contentType,
    byteSize: row.byteSize,
    width: row.width,
    height: row.height,
    createdAtMs: row.createdAtMs,
  };
}
