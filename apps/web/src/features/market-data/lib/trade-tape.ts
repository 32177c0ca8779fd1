/**
 * Follows the `sequence` / `previousSequence` links of a public trades stream (see `WsTrade`
 * in the contract). `last` is the sequence of the last trade seen on the stream, or null
 * before the first. A trade whose `previousSequence` is not `last` means trades were missed (a
 * dropped message, a reconnect, another node): the caller refetches the recent trades over
 * REST and goes on from this trade's sequence.
 */
export function followTrade(
  last: number | null,
  trade: { sequence: number; previousSequence: number | null },
): { gap: boolean; last: number } {
  return { gap: last !== null && trade.previousSequence !== last, last: trade.sequence };
}
