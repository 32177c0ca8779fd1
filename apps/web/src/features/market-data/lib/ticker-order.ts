/** A ticker as a screen shows it, with the journal sequence it came with (if any). */
export interface ShownTicker<Data> {
  data: Data;
  /** `WsTicker.sequence`: the journal sequence of the last recorded tick it reflects. */
  sequence: number | undefined;
}

/**
 * The ticker to show after `message` arrives: the message's, unless it is older than the one
 * shown (a lower `sequence`: sent late, or by a node further behind after a reconnect), then
 * the one shown, unchanged (the same object, so React keeps its state). A ticker without a
 * sequence (a server without a journal, an older server) cannot be compared and is shown.
 */
export function nextTicker<Data>(
  shown: ShownTicker<Data> | undefined,
  message: { sequence?: number; data: Data },
): ShownTicker<Data> {
  if (
    shown?.sequence !== undefined &&
    message.sequence !== undefined &&
    message.sequence < shown.sequence
  ) {
    return shown;
  }
  return { data: message.data, sequence: message.sequence };
}
