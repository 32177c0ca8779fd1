import { isPositiveAmount, readInteger } from "./forms.ts";

/** One field of a product's configuration form. */
export type ConfigField =
  | { name: string; kind: "text"; pattern: RegExp }
  | { name: string; kind: "integer"; min: number; max: number }
  | { name: string; kind: "amount"; decimalsMax: number; allowZero?: boolean }
  | { name: string; kind: "boolean" }
  | { name: string; kind: "select"; options: readonly string[] };

/** What the operator typed, per field: text, or a checkbox. */
export type ConfigValues = Record<string, string | boolean>;

/**
 * Reads the typed values into a request body: integers as numbers, amounts as decimal strings
 * checked by the decimal codec (never floats), booleans as such. Returns the names of the
 * fields that are not valid instead, when any is not.
 */
export function readConfig(
  fields: readonly ConfigField[],
  values: ConfigValues,
):
  { ok: true; body: Record<string, string | number | boolean> } | { ok: false; invalid: string[] } {
  const body: Record<string, string | number | boolean> = {};
  const invalid: string[] = [];
  for (const field of fields) {
    const raw = values[field.name];
    if (field.kind === "boolean") {
      body[field.name] = raw === true;
      continue;
    }
    const text = typeof raw === "string" ? raw.trim() : "";
    switch (field.kind) {
      case "text":
        if (field.pattern.test(text)) body[field.name] = text;
        else invalid.push(field.name);
        break;
      case "select":
        if (field.options.includes(text)) body[field.name] = text;
        else invalid.push(field.name);
        break;
      case "integer": {
        const value = readInteger(text, field.min, field.max);
        if (value === null) invalid.push(field.name);
        else body[field.name] = value;
        break;
      }
      case "amount":
        if (
          isPositiveAmount(text, field.decimalsMax) ||
          (field.allowZero === true && /^0+(\.0+)?$/.test(text))
        ) {
          body[field.name] = text;
        } else invalid.push(field.name);
        break;
    }
  }
  return invalid.length > 0 ? { ok: false, invalid } : { ok: true, body };
}

/** A product's current values as the form's text (numbers as digits, booleans as they are). */
export function configValuesOf(
  fields: readonly ConfigField[],
  current: Record<string, unknown>,
): ConfigValues {
  const values: ConfigValues = {};
  for (const field of fields) {
    const value = current[field.name];
    if (field.kind === "boolean") values[field.name] = value === true;
    else values[field.name] = value === undefined || value === null ? "" : String(value);
  }
  return values;
}

const id = /^[A-Za-z0-9_.-]{1,64}$/;
const asset = /^[A-Za-z0-9_.-]{1,32}$/;

/** The seconds products' terms (contract: configureSecondsProduct). */
export const secondsFields = [
  { name: "instrumentId", kind: "text", pattern: id },
  { name: "periodS", kind: "integer", min: 5, max: 3_600 },
  { name: "asset", kind: "text", pattern: asset },
  { name: "payoutBps", kind: "integer", min: 1, max: 20_000 },
  { name: "stakeMin", kind: "amount", decimalsMax: 18 },
  { name: "stakeMax", kind: "amount", decimalsMax: 18 },
  { name: "exposureMax", kind: "amount", decimalsMax: 18, allowZero: true },
  { name: "graceS", kind: "integer", min: 1, max: 600 },
  { name: "open", kind: "boolean" },
] as const satisfies readonly ConfigField[];

/** Savings plans' terms (contract: defineSavingsPlan; a mining plan keeps its hardware). */
export const savingsFields = [
  { name: "planId", kind: "text", pattern: id },
  { name: "kind", kind: "select", options: ["savings", "mining"] },
  { name: "name", kind: "text", pattern: /^.{1,64}$/u },
  { name: "asset", kind: "text", pattern: asset },
  { name: "cycleDays", kind: "integer", min: 1, max: 3_650 },
  { name: "dailyRatePercent", kind: "amount", decimalsMax: 6 },
  { name: "startDelayS", kind: "integer", min: 0, max: 604_800 },
  { name: "amountMin", kind: "amount", decimalsMax: 18 },
  { name: "amountMax", kind: "amount", decimalsMax: 18 },
  { name: "amountStep", kind: "amount", decimalsMax: 18 },
  { name: "capacity", kind: "amount", decimalsMax: 18, allowZero: true },
  { name: "earlyRedemption", kind: "select", options: ["none", "forfeit_unpaid"] },
  { name: "earlyPenaltyBps", kind: "integer", min: 0, max: 10_000 },
  { name: "open", kind: "boolean" },
] as const satisfies readonly ConfigField[];

/** Loan products' terms (contract: configureLoanProduct). */
export const loanFields = [
  { name: "productId", kind: "text", pattern: id },
  { name: "loanAsset", kind: "text", pattern: asset },
  { name: "collateralAsset", kind: "text", pattern: asset },
  { name: "instrumentId", kind: "text", pattern: id },
  { name: "ltvInitialBps", kind: "integer", min: 1, max: 10_000 },
  { name: "ltvMarginCallBps", kind: "integer", min: 1, max: 10_000 },
  { name: "ltvLiquidationBps", kind: "integer", min: 1, max: 10_000 },
  { name: "amountMin", kind: "amount", decimalsMax: 18 },
  { name: "amountMax", kind: "amount", decimalsMax: 18 },
  { name: "termDays", kind: "integer", min: 1, max: 365 },
  { name: "dailyRatePpm", kind: "integer", min: 0, max: 10_000 },
  { name: "reviewRequired", kind: "boolean" },
  { name: "open", kind: "boolean" },
] as const satisfies readonly ConfigField[];

/** Every configuration field's name (for its label). */
export type ConfigFieldName =
  | (typeof secondsFields)[number]["name"]
  | (typeof savingsFields)[number]["name"]
  | (typeof loanFields)[number]["name"];
