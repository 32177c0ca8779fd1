import path from "node:path";
import { ESLint, type Linter } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * Issue 13: the boundaries are enforced by `npm run lint`. Each case lints a few lines as if
 * they were a file in a real folder of the repository (`lintText` with a `filePath`; nothing is
 * written) and checks that an import that must fail fails and an allowed one passes.
 */
const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });

/** The rules that hold the boundaries; other findings (unused imports) do not matter here. */
const boundaryRules = new Set([
  "candor/import-zones",
  "no-restricted-imports",
  "@typescript-eslint/no-restricted-imports",
  "no-restricted-properties",
  "no-restricted-globals",
  "no-restricted-syntax",
]);

async function boundaryFindings(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  expect(result, filePath).toBeDefined();
  return result!.messages.filter((message) => boundaryRules.has(message.ruleId ?? ""));
}

/** Asserts that `code` in `filePath` breaks exactly `rule` (once), or nothing. */
async function expectLint(filePath: string, code: string, rule: string | null) {
  const findings = await boundaryFindings(filePath, code);
  if (rule === null) expect(findings, `${filePath}: ${code}`).toEqual([]);
  else
    expect(
      findings.map((f) => f.ruleId),
      `${filePath}: ${code}`,
    ).toEqual([rule]);
}

const zones = "candor/import-zones";

describe("packages never import apps", () => {
  it("refuses a relative import of an app", async () => {
    await expectLint(
      "packages/contract/src/boundary-fixture.ts",
      'export { buildApp } from "../../../apps/server/src/app.ts";',
      zones,
    );
  });

  it("refuses an app by its package name", async () => {
    const findings = await boundaryFindings(
      "packages/contract/src/boundary-fixture.ts",
      'import "@candor/server";\nimport "@candor/web";',
    );
    expect(findings.map((f) => f.ruleId)).toEqual([zones, zones]);
  });

  it("allows a package to import another package", async () => {
    await expectLint(
      "packages/contract/src/boundary-fixture.ts",
      'import { pow10 } from "@candor/decimal";\nimport "../../kernel/src/index.ts";\nexport { pow10 };',
      null,
    );
  });
});

describe("web features do not import each other", () => {
  const feature = "apps/web/src/features/spot-trading/components/boundary-fixture.tsx";

  it("refuses an import of another feature's internals", async () => {
    const findings = await boundaryFindings(
      feature,
      'import { useBalances } from "../../wallet/api/wallet-api.ts";\nexport { useBalances };',
    );
    expect(findings.map((f) => f.ruleId)).toEqual([zones]);
    expect(findings[0]?.message).toContain("features/spot-trading imports features/wallet");
  });

  it("refuses it in re-exports and dynamic imports too", async () => {
    await expectLint(feature, 'export * from "../../market-data/lib/depth-book.ts";', zones);
    await expectLint(
      feature,
      'export const load = () => import("../../wallet/components/assets-page.tsx");',
      zones,
    );
  });

  it("refuses an import of src/app", async () => {
    await expectLint(
      feature,
      'import { RequireLogin } from "../../../app/require-login.tsx";\nexport { RequireLogin };',
      zones,
    );
  });

  it("allows the feature's own files, src/lib and src/components", async () => {
    await expectLint(
      feature,
      [
        'import { spotTradingKeys } from "../api/spot-trading-api.ts";',
        'import { OrderForm } from "./order-form.tsx";',
        'import { callEndpoint } from "../../../lib/api-client.ts";',
        'import { Amount } from "../../../components/ui/amount.tsx";',
        "export { spotTradingKeys, OrderForm, callEndpoint, Amount };",
      ].join("\n"),
      null,
    );
  });

  it("allows src/app to put any features together", async () => {
    await expectLint(
      "apps/web/src/app/routes/boundary-fixture.tsx",
      [
        'import { TradingPanel } from "../../features/spot-trading/components/trading-panel.tsx";',
        'import { PairFunds } from "../../features/wallet/components/pair-funds.tsx";',
        "export { TradingPanel, PairFunds };",
      ].join("\n"),
      null,
    );
  });

  it("keeps src/lib and src/components free of features", async () => {
    await expectLint(
      "apps/web/src/lib/boundary-fixture.ts",
      'export { walletKeys } from "../features/wallet/api/wallet-api.ts";',
      zones,
    );
    await expectLint(
      "apps/web/src/components/ui/boundary-fixture.tsx",
      'export { Shell } from "../../app/shell.tsx";',
      zones,
    );
  });
});

describe("the web calls the API one way, without zod", () => {
  const file = "apps/web/src/features/wallet/api/boundary-fixture.ts";

  it("refuses the contract's values and zod, allows their types", async () => {
    await expectLint(
      file,
      'import { spotBalances } from "@candor/contract";\nexport { spotBalances };',
      "@typescript-eslint/no-restricted-imports",
    );
    await expectLint(
      file,
      'import { z } from "zod";\nexport const x = z.string();',
      "@typescript-eslint/no-restricted-imports",
    );
    await expectLint(
      file,
      'import type { SpotBalanceView } from "@candor/contract";\nexport type X = SpotBalanceView;',
      null,
    );
    await expectLint(
      file,
      'import { locales } from "@candor/contract/locales";\nexport { locales };',
      null,
    );
  });

  it("refuses fetch outside the API client", async () => {
    await expectLint(
      file,
      'export const load = () => fetch("/api/v1/spot/balances");',
      "no-restricted-globals",
    );
  });

  it("refuses a literal query key", async () => {
    await expectLint(
      "apps/web/src/features/wallet/components/boundary-fixture.tsx",
      'import { useQuery } from "@tanstack/react-query";\nexport const useX = () => useQuery({ queryKey: ["spot-balances"], queryFn: () => 1 });',
      "no-restricted-syntax",
    );
  });
});

describe("the kernel stays pure", () => {
  const file = "packages/kernel/src/boundary-fixture.ts";

  it("refuses I/O, other packages, the clock and randomness", async () => {
    await expectLint(
      file,
      'import { readFileSync } from "node:fs";\nexport { readFileSync };',
      "no-restricted-imports",
    );
    await expectLint(file, 'import "@candor/contract";', "no-restricted-imports");
    await expectLint(file, "export const now = () => Date.now();", "no-restricted-properties");
    await expectLint(file, "export const roll = () => Math.random();", "no-restricted-properties");
    await expectLint(file, 'export const get = () => fetch("/x");', "no-restricted-globals");
  });

  it("allows the decimal codec", async () => {
    await expectLint(file, 'import { pow10 } from "@candor/decimal";\nexport { pow10 };', null);
  });
});

describe("server modules talk to each other only through services", () => {
  const file = "apps/server/src/modules/spot/boundary-fixture.ts";

  it("refuses another module's repository, routes or helpers", async () => {
    await expectLint(file, 'import "../auth/auth.repository.ts";', zones);
    await expectLint(file, 'import "../wallet/wallet.routes.ts";', zones);
    await expectLint(file, 'export * from "../auth/passwords.ts";', zones);
  });

  it("allows another module's service and the module's own files", async () => {
    await expectLint(file, 'import "../wallet/wallet.service.ts";', null);
    await expectLint(file, 'import "./spot.repository.ts";', null);
    await expectLint(file, 'import "../../engine/submit.ts";', null);
  });

  it("refuses app.ts anywhere but serve.ts and the test harness (a module's options are its own)", async () => {
    await expectLint(file, 'import type { AppDeps } from "../../app.ts";', zones);
    await expectLint("apps/server/src/engine/boundary-fixture.ts", 'import "../app.ts";', zones);
    await expectLint("apps/server/src/serve-fixture.ts", 'import "./app.ts";', zones);
    await expectLint("apps/server/src/testing/boundary-fixture.ts", 'import "../app.ts";', null);
    await expectLint("apps/server/src/boundary-fixture.test.ts", 'import "./app.ts";', null);
  });

  it("lets a test set up what it needs from another module", async () => {
    await expectLint(
      "apps/server/src/modules/spot/boundary-fixture.test.ts",
      'import "../auth/auth.repository.ts";',
      null,
    );
  });
});
