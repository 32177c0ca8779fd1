import { fromLocalMs, toLocalMs, type TimeZone } from "./time-zones.ts";

const minuteMs = 60_000;
const dayMs = 86_400_000;
const weekMinutes = 7 * 1440;

/** Where and when an instrument trades: the exchange calendar with its time zone. */
export interface TradingCalendar {
  id: CalendarId;
  /** English name of the venue or convention. */
  name: string;
  timeZone: TimeZone;
  /** True for markets that never close (crypto); the other fields are then unused. */
  alwaysOpen: boolean;
  /**
   * Sessions as [start, end) minutes of the local week, Sunday 00:00 = 0. A session may run
   * past midnight (FX: Sunday 17:00 to Friday 17:00 New York time).
   */
  weeklySessions: readonly (readonly [number, number])[];
  /** Local dates (YYYY-MM-DD) on which the market is closed all day. */
  holidays: ReadonlySet<string>;
}

export const calendarIds = ["crypto", "nyse", "hkex", "forex", "metals", "cme", "cbot"] as const;
export type CalendarId = (typeof calendarIds)[number];

/** Minute of the week for weekday (0 = Sunday) and local hh:mm. */
function at(weekday: number, hour: number, minute = 0): number {
  return weekday * 1440 + hour * 60 + minute;
}

function weekdays(open: [number, number], close: [number, number]): [number, number][] {
  return [1, 2, 3, 4, 5].map((d) => [at(d, ...open), at(d, ...close)]);
}

/** Futures-style sessions: open the evening before (Sun–Thu) and close the next afternoon. */
function overnight(open: [number, number], close: [number, number]): [number, number][] {
  return [0, 1, 2, 3, 4].map((d) => [at(d, ...open), at(d + 1, ...close)]);
}

// Holiday lists are configuration data for 2025–2027, taken from the exchanges' published
// calendars; early closes are not modelled (docs/decisions.md).
const nyseHolidays = [
  "2025-01-01", "2025-01-09", "2025-01-20", "2025-02-17", "2025-04-18", "2025-05-26",
  "2025-06-19", "2025-07-04", "2025-09-01", "2025-11-27", "2025-12-25",
  "2026-01-01", "2026-01-19", "2026-02-16", "2026-04-03", "2026-05-25", "2026-06-19",
  "2026-07-03", "2026-09-07", "2026-11-26", "2026-12-25",
  "2027-01-01", "2027-01-18", "2027-02-15", "2027-03-26", "2027-05-31", "2027-06-18",
  "2027-07-05", "2027-09-06", "2027-11-25", "2027-12-24",
]; // prettier-ignore
const hkexHolidays = [
  "2025-01-01", "2025-01-29", "2025-01-30", "2025-01-31", "2025-04-04", "2025-04-18",
  "2025-04-21", "2025-05-01", "2025-05-05", "2025-07-01", "2025-10-01", "2025-10-07",
  "2025-10-29", "2025-12-25", "2025-12-26",
  "2026-01-01", "2026-02-17", "2026-02-18", "2026-02-19", "2026-04-03", "2026-04-06",
  "2026-04-07", "2026-05-01", "2026-05-25", "2026-06-19", "2026-07-01", "2026-09-26",
  "2026-10-01", "2026-10-19", "2026-12-25",
  "2027-01-01", "2027-02-08", "2027-02-09", "2027-03-26", "2027-03-29", "2027-04-05",
  "2027-05-13", "2027-06-09", "2027-07-01", "2027-09-16", "2027-10-01", "2027-10-08",
  "2027-12-27",
]; // prettier-ignore
const fxHolidays = ["2025-12-25", "2026-01-01", "2026-12-25", "2027-01-01", "2027-12-25"];
const cmeHolidays = [
  "2025-04-18", "2025-12-25", "2026-01-01", "2026-04-03", "2026-12-25", "2027-01-01",
  "2027-03-26", "2027-12-24",
]; // prettier-ignore

/** Every calendar, by id. */
export const calendars: Record<CalendarId, TradingCalendar> = {
  crypto: {
    id: "crypto",
    name: "24/7",
    timeZone: "Etc/UTC",
    alwaysOpen: true,
    weeklySessions: [[0, weekMinutes]],
    holidays: new Set(),
  },
  nyse: {
    id: "nyse",
    name: "New York Stock Exchange / Nasdaq",
    timeZone: "America/New_York",
    alwaysOpen: false,
    weeklySessions: weekdays([9, 30], [16, 0]),
    holidays: new Set(nyseHolidays),
  },
  hkex: {
    id: "hkex",
    name: "Hong Kong Exchanges",
    timeZone: "Asia/Hong_Kong",
    alwaysOpen: false,
    // Morning and afternoon sessions with a lunch break.
    weeklySessions: [...weekdays([9, 30], [12, 0]), ...weekdays([13, 0], [16, 0])],
    holidays: new Set(hkexHolidays),
  },
  forex: {
    id: "forex",
    name: "Foreign exchange 24/5",
    timeZone: "America/New_York",
    alwaysOpen: false,
    weeklySessions: [[at(0, 17), at(5, 17)]],
    holidays: new Set(fxHolidays),
  },
  metals: {
    id: "metals",
    name: "Precious metals (CME Globex hours)",
    timeZone: "America/New_York",
    alwaysOpen: false,
    weeklySessions: overnight([18, 0], [17, 0]),
    holidays: new Set(cmeHolidays),
  },
  cme: {
    id: "cme",
    name: "CME Globex energy and metals",
    timeZone: "America/New_York",
    alwaysOpen: false,
    weeklySessions: overnight([18, 0], [17, 0]),
    holidays: new Set(cmeHolidays),
  },
  cbot: {
    id: "cbot",
    name: "CBOT grains",
    timeZone: "America/Chicago",
    alwaysOpen: false,
    weeklySessions: [...overnight([19, 0], [7, 45]), ...weekdays([8, 30], [13, 20])],
    holidays: new Set(cmeHolidays),
  },
};

function localDate(localMs: number): string {
  return new Date(localMs).toISOString().slice(0, 10);
}

/** Whether the calendar's market is open at the instant `atMs`. */
export function isOpenAt(calendar: TradingCalendar, atMs: number): boolean {
  if (calendar.alwaysOpen) return true;
  const localMs = toLocalMs(calendar.timeZone, atMs);
  if (calendar.holidays.has(localDate(localMs))) return false;
  const localMinutes = Math.floor(localMs / minuteMs);
  // 1970-01-01 was a Thursday: shift so that minute 0 of the week is Sunday 00:00.
  const minuteOfWeek = (((localMinutes + 4 * 1440) % weekMinutes) + weekMinutes) % weekMinutes;
  return calendar.weeklySessions.some(([s, e]) => minuteOfWeek >= s && minuteOfWeek < e);
}

/** Open or closed now, and when that next changes. */
export interface MarketStatus {
  open: boolean;
  /** When a closed market next opens (ms since the epoch); null when open or unknown. */
  nextOpenMs: number | null;
  /** When an open market next closes; null for markets that never close. */
  nextCloseMs: number | null;
}

const lookaheadDays = 21;

/**
 * Status of a calendar at `atMs`. The next change is found by testing only the instants where
 * it can happen: session edges and local midnights (holidays), over the next three weeks.
 */
export function calendarStatus(calendar: TradingCalendar, atMs: number): MarketStatus {
  if (calendar.alwaysOpen) return { open: true, nextOpenMs: null, nextCloseMs: null };
  const open = isOpenAt(calendar, atMs);
  const localMs = toLocalMs(calendar.timeZone, atMs);
  const localMidnight = Math.floor(localMs / dayMs) * dayMs;
  const weekStartLocal = localMidnight - ((new Date(localMidnight).getUTCDay() * dayMs) as number);
  const candidates: number[] = [];
  for (let d = 0; d <= lookaheadDays; d++) candidates.push(localMidnight + d * dayMs);
  for (let w = 0; w * 7 <= lookaheadDays + 7; w++) {
    for (const [start, end] of calendar.weeklySessions) {
      candidates.push(weekStartLocal + w * 7 * dayMs + start * minuteMs);
      candidates.push(weekStartLocal + w * 7 * dayMs + end * minuteMs);
    }
  }
  const instants = candidates
    .map((local) => fromLocalMs(calendar.timeZone, local))
    .filter((t) => t > atMs)
    .sort((a, b) => a - b);
  for (const t of instants) {
    if (isOpenAt(calendar, t) !== open) {
      return open
        ? { open, nextOpenMs: null, nextCloseMs: t }
        : { open, nextOpenMs: t, nextCloseMs: null };
    }
  }
  return { open, nextOpenMs: null, nextCloseMs: null };
}
