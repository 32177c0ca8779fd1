// Test-only preload for a browser suite's server process (NODE_OPTIONS=--import …): when
// CANDOR_TEST_MIDNIGHT_IN_S is set, this process's clock reads that many seconds before the next
// UTC midnight at start and then runs at the normal rate, so a test can watch the kernel's
// day-end work happen (agent levels) without waiting for a real midnight. The server itself has
// no such setting: only this test preload moves `Date.now` and `new Date()`.
const seconds = Number(process.env.CANDOR_TEST_MIDNIGHT_IN_S);
if (Number.isFinite(seconds) && seconds > 0) {
  const RealDate = Date;
  const realNow = RealDate.now.bind(RealDate);
  const dayMs = 86_400_000;
  const start = realNow();
  const offset = (Math.floor(start / dayMs) + 1) * dayMs - seconds * 1_000 - start;
  const now = () => realNow() + offset;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = ShiftedDate;
}
