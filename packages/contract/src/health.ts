import { z } from "zod";

export const Health = z.object({
  status: z.literal("ok"),
  version: z.string(),
  uptimeSeconds: z.number().int().nonnegative(),
  database: z.enum(["pglite", "postgres"]),
  /** How many times the server has started on this database: 2 after a restart on the same data. */
  starts: z.number().int().positive(),
});
export type Health = z.infer<typeof Health>;
