import { calendars, calendarStatus, isOpenAt, type MarketStatus } from "./calendars.ts";
import type { Instrument } from "./instruments.ts";

/** Open or closed at `atMs`, with the next opening or closing time. */
export function marketStatus(instrument: Instrument, atMs: number): MarketStatus {
  return calendarStatus(calendars[instrument.calendarId], atMs);
}

/** Whether the instrument's market is open at `atMs`. */
export function isMarketOpen(instrument: Instrument, atMs: number): boolean {
  return isOpenAt(calendars[instrument.calendarId], atMs);
}
