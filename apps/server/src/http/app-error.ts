import { httpStatusByErrorCode, type ErrorCode } from "@candor/contract";

/** An expected failure with a stable code; the error handler turns it into an envelope. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly issues?: { path: string; message: string }[],
    options?: { cause?: unknown; params?: Readonly<Record<string, string>> },
  ) {
    super(code, options);
    this.name = "AppError";
    this.params = options?.params;
  }

  /** Values for the message's `{{name}}` placeholders (e.g. a time). */
  readonly params?: Readonly<Record<string, string>>;

  get status(): number {
    return httpStatusByErrorCode[this.code];
  }
}
