import { httpStatusByErrorCode, type ErrorCode } from "@candor/contract";

/** An expected failure with a stable code; the error handler turns it into an envelope. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly issues?: { path: string; message: string }[],
    options?: { cause?: unknown },
  ) {
    super(code, options);
    this.name = "AppError";
  }

  get status(): number {
    return httpStatusByErrorCode[this.code];
  }
}
