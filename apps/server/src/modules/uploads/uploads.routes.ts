import multipart from "@fastify/multipart";
import {
  operatorUploadFileEndpoint,
  operatorUploadImageEndpoint,
  uploadFileEndpoint,
  uploadImageEndpoint,
} from "@candor/contract";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";
import { operatorIdOf } from "../../http/operator-audit.ts";
import { imageReply, uploadContentSecurityPolicy, type UploadsService } from "./uploads.service.ts";

export interface UploadsModuleOptions {
  uploads: UploadsService;
}

export { uploadContentSecurityPolicy };

/** The one file part named `file` of a multipart request; refusals as API errors. */
async function readFilePart(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw new AppError("unsupported_media_type");
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== "file" || part.fieldname !== "file" || bytes) {
        throw new AppError("validation_failed", [
          { path: "body.file", message: "one file part named file" },
        ]);
      }
      // The client's file name and declared type are read past, never used.
      bytes = await part.toBuffer();
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && "code" in error) {
      if (error.code === "FST_REQ_FILE_TOO_LARGE") throw new AppError("upload_too_large");
      if (String(error.code).startsWith("FST_")) {
        throw new AppError("validation_failed", [
          { path: "body.file", message: "one file part named file" },
        ]);
      }
    }
    throw error;
  }
  if (!bytes || bytes.length === 0) {
    throw new AppError("validation_failed", [{ path: "body.file", message: "required" }]);
  }
  return bytes;
}

/** `/api/v1/uploads` (multipart upload, the owner's file) and the operator's view of any file. */
export const uploadsModule: FastifyPluginAsync<UploadsModuleOptions> = async (app, options) => {
  const { uploads } = options;
  await app.register(multipart, {
    limits: {
      fileSize: uploads.limits.maxBytes,
      files: 1,
      fields: 0,
      parts: 1,
      fieldNameSize: 16,
      headerPairs: 20,
    },
  });
  defineRoute(
    app,
    uploadImageEndpoint,
    { perUser: { max: 60, windowMs: 60 * 60_000 } },
    async ({ user, query, request }) => ({
      upload: await uploads.store(String(user.id), query.purpose, await readFilePart(request)),
    }),
  );
  defineRoute(
    app,
    operatorUploadImageEndpoint,
    { perIp: { max: 60, windowMs: 60 * 60_000 } },
    async ({ query, request }) => ({
      upload: await uploads.store(
        `operator:${operatorIdOf(request)}`,
        query.purpose,
        await readFilePart(request),
      ),
    }),
  );
  defineRoute(app, uploadFileEndpoint, {}, async ({ user, params, reply }) =>
    imageReply(reply, await uploads.forOwner(params.uploadId, String(user.id))),
  );
  defineRoute(app, operatorUploadFileEndpoint, {}, async ({ params, reply }) =>
    imageReply(reply, await uploads.forOperator(params.uploadId)),
  );
};
