// One table describes every command's fields in a fixed order. It drives shape validation,
// the cheap equality check behind idempotency (no re-serialising), and the canonical bytes the
// journal stores. The table is assembled from the modules' codec entries (`registry.ts`).

import { assert } from "./assert.ts";
import { utf8Encode } from "./hash/sha256.ts";
import type { CommandCodecEntry, FieldKind } from "./module.ts";
import type { RejectCode } from "./reject-codes.ts";
import { commandCodecs } from "./registry.ts";
import type { Command, CommandType } from "./types.ts";

type Schema = CommandCodecEntry["fields"];

/**
 * Field order per command type, after `type`, `id` and `atMs`: each product declares its own
 * (`commands` in its `module.ts`). Append-only per type.
 */
export const commandSchemas: Readonly<Record<CommandType, Schema>> = Object.freeze(
  Object.fromEntries(
    Object.entries(commandCodecs).map(([type, entry]) => [type, entry.fields]),
  ) as Record<CommandType, Schema>,
);

/** Longest string field accepted in a command. */
export const COMMAND_STRING_LENGTH_MAX = 256;

function fieldCode(kind: FieldKind, value: unknown): RejectCode | null {
  switch (kind) {
    case "string":
      return typeof value === "string" && value.length <= COMMAND_STRING_LENGTH_MAX
        ? null
        : "command_malformed";
    case "string?+":
      return value === undefined ||
        value === null ||
        (typeof value === "string" && value.length <= COMMAND_STRING_LENGTH_MAX)
        ? null
        : "command_malformed";
    case "string?":
      return value === null ||
        (typeof value === "string" && value.length <= COMMAND_STRING_LENGTH_MAX)
        ? null
        : "command_malformed";
    case "int":
      return Number.isSafeInteger(value) ? null : "command_malformed";
    case "int?":
      return value === null || Number.isSafeInteger(value) ? null : "command_malformed";
    case "bigint":
      return typeof value === "bigint" ? null : "command_malformed";
    case "bigint?":
      return value === null || typeof value === "bigint" ? null : "command_malformed";
    case "bool":
      return typeof value === "boolean" ? null : "command_malformed";
    case "mode":
      return value === "real" || value === "demo" ? null : "mode_invalid";
    case "wallet":
      return value === "fund" || value === "contract" || value === "fiat" ? null : "wallet_invalid";
    case "side":
      return value === "buy" || value === "sell" ? null : "command_malformed";
    case "tif":
      return value === "gtc" || value === "ioc" || value === "fok" || value === "post_only"
        ? null
        : "time_in_force_invalid";
    case "order_type":
      return value === "limit" || value === "market" ? null : "order_type_invalid";
  }
}

/**
 * Checks a command's shape against its schema: `command_unknown` for an unknown type, else the
 * first field's code (`command_malformed`, `mode_invalid`, …), or null when it fits.
 * `id` and `atMs` are checked by `apply` itself.
 */
export function commandShapeCode(
  command: Command,
  type: CommandType = command.type,
): RejectCode | null {
  // The hot commands get hand-written checks; the schema walk below covers every type. `type`
  // is `command.type`, read once by the caller: commands of every shape pass here, so each
  // read of one of their fields is a megamorphic lookup.
  if (type === "replace_order") {
    const c = command as Extract<Command, { type: "replace_order" }>;
    if (
      typeof c.ownerId === "string" &&
      c.ownerId.length <= COMMAND_STRING_LENGTH_MAX &&
      (c.mode === "real" || c.mode === "demo") &&
      Number.isSafeInteger(c.orderId) &&
      Number.isSafeInteger(c.priceTicks) &&
      Number.isSafeInteger(c.quantityLots)
    ) {
      return null;
    }
  } else if (type === "place_order") {
    const c = command as Extract<Command, { type: "place_order" }>;
    if (
      typeof c.ownerId === "string" &&
      c.ownerId.length <= COMMAND_STRING_LENGTH_MAX &&
      (c.mode === "real" || c.mode === "demo") &&
      typeof c.marketId === "string" &&
      c.marketId.length <= COMMAND_STRING_LENGTH_MAX &&
      (c.side === "buy" || c.side === "sell") &&
      (c.orderType === "limit" || c.orderType === "market") &&
      (c.timeInForce === "gtc" ||
        c.timeInForce === "ioc" ||
        c.timeInForce === "fok" ||
        c.timeInForce === "post_only") &&
      (c.priceTicks === null || Number.isSafeInteger(c.priceTicks)) &&
      (c.quantityLots === null || Number.isSafeInteger(c.quantityLots)) &&
      (c.quoteAmount === null || typeof c.quoteAmount === "bigint")
    ) {
      return null;
    }
  } else if (type === "cancel_order") {
    const c = command as Extract<Command, { type: "cancel_order" }>;
    if (
      typeof c.ownerId === "string" &&
      c.ownerId.length <= COMMAND_STRING_LENGTH_MAX &&
      (c.mode === "real" || c.mode === "demo") &&
      Number.isSafeInteger(c.orderId)
    ) {
      return null;
    }
  }
  const schema = commandSchemas[type] as Schema | undefined;
  if (schema === undefined || !Object.hasOwn(commandSchemas, type)) {
    return "command_unknown";
  }
  const record = command as unknown as Record<string, unknown>;
  for (let i = 0; i < schema.length; i++) {
    const field = schema[i]!;
    const code = fieldCode(field[1], record[field[0]]);
    if (code !== null) return code;
  }
  return null;
}

/**
 * True when two commands of valid shape carry the same content (cheap: no encoding). `atMs` is
 * not content: the engine stamps the time, so a client's retry arrives with a later one.
 */
export function commandsEqual(first: Command, second: Command): boolean {
  if (first.type !== second.type || first.id !== second.id) return false;
  const schema = commandSchemas[first.type];
  const a = first as unknown as Record<string, unknown>;
  const b = second as unknown as Record<string, unknown>;
  for (let i = 0; i < schema.length; i++) {
    const name = schema[i]![0];
    // An appended field (`string?+`) absent on one side and null on the other is the same.
    if (a[name] !== b[name] && (a[name] ?? null) !== (b[name] ?? null)) return false;
  }
  return true;
}

/** The command as a JSON array in schema order, bigints as decimal strings. */
export function commandToJsonArray(command: Command): unknown[] {
  const schema = commandSchemas[command.type];
  const record = command as unknown as Record<string, unknown>;
  const out: unknown[] = [command.type, command.id, command.atMs];
  for (let i = 0; i < schema.length; i++) {
    const value = record[schema[i]![0]];
    out.push(typeof value === "bigint" ? value.toString() : value);
  }
  // Appended fields left empty are not written: the bytes are those of before they existed.
  for (let i = schema.length - 1; i >= 0 && schema[i]![1] === "string?+"; i--) {
    if (out.at(-1) !== null && out.at(-1) !== undefined) break;
    out.pop();
  }
  return out;
}

const BIGINT_PATTERN = /^-?(0|[1-9][0-9]*)$/;

/** Inverse of {@link commandToJsonArray}; throws on anything that is not a valid encoding. */
export function commandFromJsonArray(array: unknown): Command {
  assert(Array.isArray(array), "command encoding must be an array");
  const type = array[0];
  assert(
    typeof type === "string" && Object.hasOwn(commandSchemas, type),
    "unknown command type in encoding",
  );
  const schema = commandSchemas[type as CommandType];
  let appended = 0;
  while (appended < schema.length && schema[schema.length - 1 - appended]![1] === "string?+") {
    appended++;
  }
  assert(
    array.length <= schema.length + 3 && array.length >= schema.length + 3 - appended,
    "command encoding has the wrong length",
  );
  const record: Record<string, unknown> = { type, id: array[1], atMs: array[2] };
  assert(typeof record.id === "string", "command id must be a string");
  assert(Number.isSafeInteger(record.atMs), "command atMs must be an integer");
  for (let i = 0; i < schema.length; i++) {
    const [name, kind] = schema[i]!;
    let value = array[i + 3];
    if ((kind === "bigint" || kind === "bigint?") && typeof value === "string") {
      assert(BIGINT_PATTERN.test(value), "bigint field must be a decimal integer");
      value = BigInt(value);
    }
    assert(fieldCode(kind, value) === null, `field ${name} has the wrong shape`);
    if (value === undefined) continue; // An appended field the record does not have.
    record[name] = value;
  }
  return record as unknown as Command;
}

/** Canonical bytes of a command for the journal: UTF-8 JSON array in schema order. */
export function encodeCommand(command: Command): Uint8Array {
  const code = commandShapeCode(command);
  assert(code === null, `cannot encode a malformed command (${code ?? ""})`);
  return utf8Encode(JSON.stringify(commandToJsonArray(command)));
}

/** Decodes bytes written by {@link encodeCommand}; throws on anything else. */
export function decodeCommand(bytes: Uint8Array): Command {
  return commandFromJsonArray(JSON.parse(utf8Decode(bytes)));
}

/** Decodes UTF-8 (TextDecoder is not part of the kernel's ES2022 lib). Rejects invalid input. */
export function utf8Decode(bytes: Uint8Array): string {
  let out = "";
  let chunk: number[] = [];
  for (let i = 0; i < bytes.length;) {
    const first = bytes[i]!;
    let code: number;
    let extra: number;
    if (first < 0x80) {
      code = first;
      extra = 0;
    } else if (first >= 0xc2 && first < 0xe0) {
      code = first & 0x1f;
      extra = 1;
    } else if (first >= 0xe0 && first < 0xf0) {
      code = first & 0x0f;
      extra = 2;
    } else if (first >= 0xf0 && first < 0xf5) {
      code = first & 0x07;
      extra = 3;
    } else {
      throw new RangeError("invalid UTF-8");
    }
    assert(i + extra < bytes.length + (extra === 0 ? 1 : 0), "truncated UTF-8");
    for (let k = 1; k <= extra; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) throw new RangeError("invalid UTF-8");
      code = (code << 6) | (next & 0x3f);
    }
    i += extra + 1;
    if (code >= 0x10000) {
      code -= 0x10000;
      chunk.push(0xd800 + (code >> 10), 0xdc00 + (code & 0x3ff));
    } else {
      chunk.push(code);
    }
    if (chunk.length > 4096) {
      out += String.fromCharCode(...chunk);
      chunk = [];
    }
  }
  return out + String.fromCharCode(...chunk);
}
