/**
 * The W5 closed loop: `records` appends of `payload`, at most `inFlightMax` in flight, each
 * completion issuing the next. Shared by journal-bench.ts and journal-cpu.ts.
 */
export function closedLoop(
  journal: { append(payload: Uint8Array): Promise<unknown> },
  payload: Uint8Array,
  records: number,
  inFlightMax: number,
): Promise<void> {
  let issued = 0;
  let done = 0;
  return new Promise<void>((resolve, reject) => {
    const onDone = () => {
      done += 1;
      if (done === records) resolve();
      else if (issued < records) issue();
    };
    const issue = () => {
      issued += 1;
      journal.append(payload).then(onDone, reject);
    };
    while (issued < Math.min(inFlightMax, records)) issue();
  });
}
