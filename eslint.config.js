// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

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
    rules: {
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
    },
  },
);
