import type { Statement } from "../db/database.ts";

/** Rows per statement: well under PostgreSQL's 65,535 parameters at ≤ 25 columns. */
const rowsPerStatement = 1_000;

/**
 * Multi-row statements for the projector: `head`, one `($1, $2, …)` tuple per row, `tail`, at
 * most `rowsPerStatement` rows each; none for no rows. `casts` gives a column's placeholders a
 * type (`::int8`) where PostgreSQL cannot infer one (a `VALUES` list in `UPDATE … FROM`).
 *
 * Built by hand rather than with Kysely's `sql` template: the projector writes every order,
 * fill and statement line, and compiling a template per row cost the main thread more than
 * the rest of an order's projection (issue 15, W6).
 */
export function valuesStatements(
  head: string,
  tail: string,
  rows: readonly (readonly unknown[])[],
  casts?: readonly (string | undefined)[],
): Statement[] {
  const statements: Statement[] = [];
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const end = Math.min(rows.length, start + rowsPerStatement);
    const parameters: unknown[] = [];
    const tuples: string[] = [];
    for (let r = start; r < end; r++) {
      const row = rows[r]!;
      let tuple = "(";
      for (let c = 0; c < row.length; c++) {
        parameters.push(row[c]);
        const cast = casts?.[c];
        tuple += `${c === 0 ? "" : ", "}$${parameters.length}${cast ? `::${cast}` : ""}`;
      }
      tuples.push(`${tuple})`);
    }
    statements.push({ sql: `${head} ${tuples.join(", ")} ${tail}`, parameters });
  }
  return statements;
}
