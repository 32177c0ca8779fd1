// The statement's reasons against the kernel's: every posting reason the kernel can write is a
// statement reason the response check accepts (else a statement with that line answers 500
// outside production), and every one has a label in each of the web app's 12 locales.
// `PostingReason` is a type, so the kernel's list is read from its source.

import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { StatementReason } from "@candor/contract";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** The string literals of the kernel's `PostingReason` union, in source order. */
function kernelPostingReasons(): string[] {
  const file = path.join(root, "packages/kernel/src/ledger/types.ts");
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  const alias = source.statements.find(
    (s): s is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(s) && s.name.text === "PostingReason",
  );
  if (!alias || !ts.isUnionTypeNode(alias.type)) throw new Error("PostingReason is not a union");
  return alias.type.types.map((member) => {
    if (!ts.isLiteralTypeNode(member) || !ts.isStringLiteral(member.literal))
      throw new Error(`PostingReason has a member that is not a string: ${member.getText(source)}`);
    return member.literal.text;
  });
}

describe("statement reasons", () => {
  const kernel = kernelPostingReasons();

  it("reads the kernel's posting reasons", () => {
    expect(kernel).toEqual(expect.arrayContaining(["deposit", "perp_fee", "loans_principal"]));
  });

  it("are exactly the kernel's posting reasons", () => {
    expect([...StatementReason.options].sort()).toEqual([...kernel].sort());
    for (const reason of kernel)
      expect(StatementReason.safeParse(reason).success, reason).toBe(true);
  });

  it("each have a label in every web locale", () => {
    const dir = path.join(root, "apps/web/src/locales");
    const files = readdirSync(dir).filter((name) => name.endsWith(".json"));
    expect(files).toHaveLength(12);
    for (const name of files) {
      const texts = JSON.parse(readFileSync(path.join(dir, name), "utf8"));
      const labels: Record<string, unknown> = texts.coinCoin.statement.reasons;
      for (const reason of kernel) {
        expect(typeof labels[reason], `${name}: coinCoin.statement.reasons.${reason}`).toBe(
          "string",
        );
      }
    }
  });
});
