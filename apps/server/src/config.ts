import { z } from "zod";

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Bearer token of the operator endpoints; unset: nobody is operator. */
  OPERATOR_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** A kernel snapshot is written after every this many journal records. */
  SNAPSHOT_EVERY: z.coerce.number().int().min(0).default(10_000),
});

/** Server configuration, read from the environment at start-up. */
export type Config = z.infer<typeof ConfigSchema>;

/** Thrown for bad configuration; its message is one line naming the variable and the problem. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export function readConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set", as it does in most shells and .env files.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = ConfigSchema.safeParse(present);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = String(issue.path[0]);
  throw new ConfigError(`${name}=${JSON.stringify(env[name] ?? "")} is invalid: ${issue.message}`);
}
