import { z } from "zod";

/**
 * Every API response has this shape. `code` is 200 on success and otherwise mirrors the HTTP
 * status; `error` is a stable string code (see errors.ts); `message` is in the request's language.
 */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({
    code: z.number().int(),
    message: z.string(),
    data,
    error: z.string().optional(),
  });
}

export const ErrorEnvelope = z.object({
  code: z.number().int(),
  message: z.string(),
  data: z.null(),
  error: z.string(),
  /** For validation failures: which field, and what is wrong with it. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
