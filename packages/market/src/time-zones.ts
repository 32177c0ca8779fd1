/**
 * The few time zones trading calendars need, with their daylight-saving rules written out so
 * the package stays pure and gives the same answer on every machine (no ICU data involved).
 */
export const timeZones = [
  "Etc/UTC",
  "America/New_York",
  "America/Chicago",
  "Asia/Hong_Kong",
] as const;
export type TimeZone = (typeof timeZones)[number];

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;

interface ZoneRule {
  /** Offset from UTC outside daylight-saving time, in minutes (New York: -300). */
  standardOffsetMinutes: number;
  /** Whether the zone follows the US rule (second Sunday of March to first Sunday of November). */
  usDaylightSaving: boolean;
}

const rules: Record<TimeZone, ZoneRule> = {
  "Etc/UTC": { standardOffsetMinutes: 0, usDaylightSaving: false },
  "America/New_York": { standardOffsetMinutes: -300, usDaylightSaving: true },
  "America/Chicago": { standardOffsetMinutes: -360, usDaylightSaving: true },
  "Asia/Hong_Kong": { standardOffsetMinutes: 480, usDaylightSaving: false },
};

/** Day of month of the n-th (1-based) Sunday of a month (0-based month). */
function nthSunday(year: number, month: number, n: number): number {
  const firstWeekday = new Date(Date.UTC(year, month, 1)).getUTCDay();
  return 1 + ((7 - firstWeekday) % 7) + (n - 1) * 7;
}

/** Offset from UTC in minutes at the instant `atMs` (positive east of Greenwich). */
export function utcOffsetMinutes(zone: TimeZone, atMs: number): number {
  const rule = rules[zone];
  if (!rule.usDaylightSaving) return rule.standardOffsetMinutes;
  const year = new Date(atMs).getUTCFullYear();
  const standardMs = rule.standardOffsetMinutes * minuteMs;
  // Clocks go forward at 02:00 standard time and back at 02:00 daylight time.
  const startMs = Date.UTC(year, 2, nthSunday(year, 2, 2), 2) - standardMs;
  const endMs = Date.UTC(year, 10, nthSunday(year, 10, 1), 2) - (standardMs + hourMs);
  return atMs >= startMs && atMs < endMs
    ? rule.standardOffsetMinutes + 60
    : rule.standardOffsetMinutes;
}

/** The local wall-clock time of `atMs` in `zone`, as milliseconds of a UTC-based calendar. */
export function toLocalMs(zone: TimeZone, atMs: number): number {
  return atMs + utcOffsetMinutes(zone, atMs) * minuteMs;
}

/**
 * The instant at which local wall-clock time `localMs` occurs. In the spring-forward gap the
 * result is the instant an hour later; in the repeated autumn hour, the first occurrence.
 */
export function fromLocalMs(zone: TimeZone, localMs: number): number {
  const guess = localMs - utcOffsetMinutes(zone, localMs) * minuteMs;
  return localMs - utcOffsetMinutes(zone, guess) * minuteMs;
}
