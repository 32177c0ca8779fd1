import type { Statement } from "../db/database.ts";

/*
 * Multi-row statements for the projector, each with ONE parameter: the rows as a JSON array of
 * objects, which PostgreSQL turns into rows (`json_populate_recordset` with the table's own row
 * type for inserts, `json_to_recordset` with named column types for updates).
 *
 * Before (issue 15, W6) every value was a parameter of a `VALUES (…), (…)` list: hundreds of
 * parameters per statement, each serialised by PGlite's JavaScript wire-protocol code and bound
 * and type-resolved one by one, and a plan over a `VALUES` list that size. A flush of ~100
 * orders cost PGlite's worker as much CPU as the main thread spent serving them. The JSON text
 * is made natively (`JSON.stringify`), crosses to the worker as one string and is parsed by
 * PostgreSQL's C code. Built by hand rather than with Kysely's `sql` template for the same
 * reason as before: the projector writes every order, fill and statement line.
 *
 * Values must be JSON-representable as the column's input text: strings, finite numbers
 * (integers here), booleans and null; bigints go in as strings (`String(amount)`).
 */

/** ES2024 string methods (Node 20 has them; the project's TypeScript lib is ES2022). */
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/**
 * Rows as a JSON array of objects keyed by `columns` (rows are arrays in `columns` order). A
 * lone surrogate in a string becomes U+FFFD, as the UTF-8 encoding of a text parameter made it
 * before: PostgreSQL rejects a `\ud800` escape without its pair, which would stop the projector.
 */
function rowsJson(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const objects: Record<string, unknown>[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const object: Record<string, unknown> = {};
    for (let c = 0; c < columns.length; c++) {
      const value = row[c];
      object[columns[c]!] =
        typeof value === "string" && !(value as unknown as WellFormed).isWellFormed()
          ? (value as unknown as WellFormed).toWellFormed()
          : value;
    }
    objects[r] = object;
  }
  return JSON.stringify(objects);
}

/** Splits a column list written as SQL (`"a, b, c"`) into names. */
function columnNames(columns: string): string[] {
  return columns.split(",").map((c) => c.trim());
}

/**
 * `INSERT INTO table (columns) … tail` of `rows` (arrays in `columns` order) as one statement;
 * none for no rows. Column types are the table's; columns not listed get their defaults.
 */
export function insertRows(
  table: string,
  columns: string,
  rows: readonly (readonly unknown[])[],
  tail: string,
): Statement[] {
  if (rows.length === 0) return [];
  const names = columnNames(columns);
  const list = names.join(", ");
  return [
    {
      sql: `INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json) ${tail}`,
      parameters: [rowsJson(names, rows)],
    },
  ];
}

/**
 * `head FROM json_to_recordset(…) AS v(column type, …) tail` of `rows` (arrays in `columns`
 * order) as one statement: an `UPDATE … SET … FROM` whose `tail` is the `WHERE` joining `v`.
 * None for no rows.
 */
export function updateFromRows(
  head: string,
  columns: readonly (readonly [name: string, type: string])[],
  rows: readonly (readonly unknown[])[],
  tail: string,
): Statement[] {
  if (rows.length === 0) return [];
  const names = columns.map(([name]) => name);
  const definition = columns.map(([name, type]) => `${name} ${type}`).join(", ");
  return [
    {
      sql: `${head} FROM json_to_recordset($1::json) AS v(${definition}) ${tail}`,
      parameters: [rowsJson(names, rows)],
    },
  ];
}
