/**
 * Reads a timestamp as milliseconds since the epoch. Values of 9 or 10 integer digits are
 * seconds (spec §5: 1999-2286 in seconds); anything else is taken as milliseconds.
 * Returns undefined for what is not a non-negative integer.
 */
export function toEpochMs(value: number | string): number | undefined {
  const text = typeof value === "number" ? String(value) : value.trim();
  if (!/^\d+$/.test(text)) return undefined;
  const digits = text.replace(/^0+(?=\d)/, "").length;
  const number = Number(text);
  if (!Number.isSafeInteger(number)) return undefined;
  return digits === 9 || digits === 10 ? number * 1000 : number;
}

/** Formats a timestamp (seconds or milliseconds, see `toEpochMs`) as a local date and time. */
export function formatDateTime(value: number | string, locale: string, timeZone?: string): string {
  const ms = toEpochMs(value);
  if (ms === undefined) return "--";
  return new Intl.DateTimeFormat(locale, {
    dateStyle: "short",
    timeStyle: "medium",
    ...(timeZone ? { timeZone } : {}),
  }).format(ms);
}
