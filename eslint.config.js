// @ts-check
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

const root = import.meta.dirname;

/** Repository path of a file, with forward slashes ("apps/web/src/lib/session.ts"). */
const repoPath = (/** @type {string} */ file) =>
  path.relative(root, file).split(path.sep).join("/");

/** Workspace package name → folder ("@candor/server" → "apps/server"), to resolve bare imports. */
const workspaceFolders = new Map(
  ["apps", "packages"].flatMap((group) =>
    readdirSync(path.join(root, group))
      .filter((name) => existsSync(path.join(root, group, name, "package.json")))
      .map((name) => {
        const manifest = JSON.parse(
          readFileSync(path.join(root, group, name, "package.json"), "utf8"),
        );
        return /** @type {[string, string]} */ ([manifest.name, `${group}/${name}`]);
      }),
  ),
);

/** The repository path an import points at, or undefined for a package outside the workspace. */
function resolveImport(/** @type {string} */ filename, /** @type {string} */ source) {
  if (source.startsWith(".")) return repoPath(path.resolve(path.dirname(filename), source));
  const match = /^(@[^/]+\/[^/]+|[^@/][^/]*)(\/.*)?$/.exec(source);
  const folder = match ? workspaceFolders.get(match[1] ?? "") : undefined;
  return folder === undefined ? undefined : `${folder}${match?.[2] ?? "/"}`;
}

/**
 * Import boundaries between folders ("zones"), checked on the resolved path of every import,
 * re-export and dynamic import, so `../../wallet/api/x.ts` and `@candor/server` are caught alike.
 * A zone forbids files matching `from` to import paths matching `to`; with `sameGroup: true`
 * the import is allowed when both patterns capture the same first group (the same feature).
 * `{{from}}` and `{{to}}` in the message are those groups. A local rule of a few lines instead
 * of eslint-plugin-boundaries or import-x/no-restricted-paths: no dependency and no resolver
 * to configure, because workspace imports are explicit relative paths or @candor/* names.
 */
/** @type {import("eslint").Rule.RuleModule} */
const importZones = {
  meta: {
    type: "problem",
    docs: { description: "Forbid imports across folder boundaries (zones)" },
    schema: false,
  },
  create(context) {
    const file = repoPath(context.filename);
    /** @type {{ from: string; to: string; sameGroup?: boolean; message: string }[]} */
    const zones = context.options;
    const active = zones.filter((zone) => new RegExp(zone.from).test(file));
    if (active.length === 0) return {};
    /** @param {import("estree").Node} node @param {unknown} source */
    const check = (node, source) => {
      if (typeof source !== "string") return;
      const target = resolveImport(context.filename, source);
      if (target === undefined) return;
      for (const zone of active) {
        const from = new RegExp(zone.from).exec(file);
        const to = new RegExp(zone.to).exec(target);
        if (!from || !to) continue;
        if (zone.sameGroup && from[1] === to[1]) continue;
        const message = zone.message
          .replaceAll("{{from}}", from[1] ?? "")
          .replaceAll("{{to}}", to[1] ?? "");
        context.report({ node, message });
      }
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) =>
        node.source.type === "Literal" && check(node.source, node.source.value),
    };
  },
};

/** The boundaries of issue 13; `tests/lint-boundaries.test.ts` shows that each one bites. */
const zones = [
  {
    from: "^packages/",
    to: "^apps/",
    message: "A package never imports an app: dependencies point from apps to packages.",
  },
  {
    from: "^apps/web/src/features/([^/]+)/",
    to: "^apps/web/src/features/([^/]+)/",
    sameGroup: true,
    message:
      "features/{{from}} imports features/{{to}}: a feature does not import another. Move what " +
      "both need to src/lib or src/components, or put them together in src/app.",
  },
  {
    from: "^apps/web/src/features/",
    to: "^apps/web/src/app/",
    message: "A feature does not import src/app: src/app puts the features together.",
  },
  {
    from: "^apps/web/src/(lib|components)/",
    to: "^apps/web/src/(features|app)/",
    message: "src/{{from}} is shared by every feature and imports none of them, nor src/app.",
  },
  {
    // Server modules talk to each other only through services. Tests may reach further (a test
    // sets up what it needs); production files may not.
    from: "^apps/server/src/modules/([^/]+)/(?![^/]*\\.test\\.ts$)",
    to: "^apps/server/src/modules/([^/]+)/(?![^/]+\\.service\\.ts$)",
    sameGroup: true,
    message:
      "modules/{{from}} imports modules/{{to}} past its service: modules talk to each other " +
      "only through services.",
  },
  {
    // app.ts lists the modules and hands each its options; a module importing it (even a type)
    // would close an import circle. What a module's options are is the module's own.
    from: "^apps/server/src/(?!app\\.ts$|serve\\.ts$|testing/)(?![^]*\\.test\\.ts$)",
    to: "^apps/server/src/app\\.ts$",
    message:
      "Only serve.ts (and the test harness) imports app.ts: a module declares its own options " +
      "and app.ts imports them.",
  },
];

/** Pure code: no clock, no randomness, no I/O. Time, ids and prices arrive in commands. */
const purity = {
  // The shared decimal codec is pure too, and the one package pure code may use.
  "no-restricted-imports": [
    "error",
    { patterns: [{ group: ["node:*", "@candor/*", "!@candor/decimal", "zod"] }] },
  ],
  "no-restricted-properties": [
    "error",
    { object: "Date", property: "now", message: "Pass time in a command." },
    { object: "Math", property: "random", message: "Pass a seed in a command." },
    { object: "performance", property: "now", message: "Pass time in a command." },
  ],
  "no-restricted-globals": [
    "error",
    "fetch",
    "setTimeout",
    "setInterval",
    "setImmediate",
    "queueMicrotask",
    "process",
    "require",
    "XMLHttpRequest",
    "WebSocket",
  ],
  "no-restricted-syntax": [
    "error",
    {
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message: "No clock in pure code.",
    },
  ],
};

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "data/**", "test-results/**", "**/*.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { candor: { rules: { "import-zones": importZones } } },
    rules: {
      "candor/import-zones": ["error", ...zones],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
  {
    files: [
      "packages/kernel/src/**",
      "packages/market/src/**",
      "packages/decimal/src/**",
      "packages/proof/src/**",
    ],
    ignores: ["**/*.test.ts"],
    languageOptions: { globals: {} },
    rules: purity,
  },
  {
    // The proof library reuses the kernel's pure SHA-256 (and nothing else of the kernel).
    files: ["packages/proof/src/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?:node:|zod(?:/|$)|@candor/(?!decimal$|kernel/hash/sha256$))",
              message: "Pure code: only @candor/decimal and the kernel's SHA-256.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["packages/contract/src/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["node:*"] }],
    },
  },
  {
    files: ["apps/web/src/**"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "no-restricted-imports": ["error", { patterns: ["node:*", "@candor/server*"] }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "Property[key.name='queryKey'] > ArrayExpression",
          message: "Use the feature's queryKeys object (api/), not a literal query key.",
        },
      ],
    },
  },
  {
    // The app's own code (tests may use the contract's values to check the web against it).
    files: ["apps/web/src/**"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "@candor/contract",
              allowTypeImports: true,
              message:
                "Import the contract's types only (import type): its values carry zod, which " +
                "stays out of the web bundle. Endpoints are called through a feature's " +
                "api/endpoints.ts and callEndpoint.",
            },
            { name: "zod", allowTypeImports: true, message: "No zod in the web bundle." },
          ],
          patterns: [
            {
              group: ["@candor/contract/*", "!@candor/contract/locales"],
              allowTypeImports: true,
              message: "Import the contract's types only (import type): no zod in the web bundle.",
            },
          ],
        },
      ],
    },
  },
  {
    // The API is called one way: callEndpoint.
    files: ["apps/web/src/**"],
    ignores: ["apps/web/src/lib/api-client.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "fetch", message: "Call the API with callEndpoint (lib/api-client.ts)." },
        { name: "XMLHttpRequest", message: "Call the API with callEndpoint (lib/api-client.ts)." },
      ],
    },
  },
  {
    // The service worker and the offline page's script: plain browser scripts built by pwa/plugin.ts.
    files: ["apps/web/pwa/*.js"],
    languageOptions: {
      globals: {
        ...globals.serviceworker,
        ...globals.browser,
        __PRECACHE__: "readonly",
        __TEXTS__: "readonly",
      },
    },
  },
);
