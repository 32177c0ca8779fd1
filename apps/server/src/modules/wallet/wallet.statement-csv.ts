import type { StatementExportView } from "@candor/contract";
import Papa from "papaparse";

/** The CSV columns, in order; `at_ms` and the text fields are exactly what the hash covers. */
export const statementCsvColumns = [
  "posting_seq",
  "sequence",
  "time",
  "at_ms",
  "wallet",
  "asset",
  "amount",
  "balance_after",
  "from_held",
  "reason",
  "counterparty",
  "order_id",
  "fill_id",
  "tick_id",
  "operator_id",
  "reference",
  "hash",
] as const;

/**
 * The statement as CSV (RFC 4180, by papaparse): one row per line, oldest first. A text field
 * that a spreadsheet would run as a formula is prefixed with `'`; signed amounts stay numbers.
 */
export function statementCsv(statement: StatementExportView): string {
  return Papa.unparse(
    {
      fields: [...statementCsvColumns],
      data: statement.lines.map((line) => [
        line.postingSeq,
        line.sequence,
        new Date(line.atMs).toISOString(),
        String(line.atMs),
        line.wallet,
        line.asset,
        line.amount,
        line.balanceAfter,
        String(line.fromHeld),
        line.reason,
        line.counterparty,
        line.orderId ?? "",
        line.fillId ?? "",
        line.tickId ?? "",
        line.operatorId ?? "",
        line.reference ?? "",
        line.hash,
      ]),
    },
    { escapeFormulae: /^(?:[=+@\t\r]|-(?![0-9]+(?:\.[0-9]+)?$))/, newline: "\r\n" },
  );
}
