// Test-only preload for a browser suite's server process (NODE_OPTIONS=--import …): when
// CANDOR_TEST_MIDNIGHT_IN_S is set, this process's `Date.now` reads that many seconds before the
// next UTC midnight at start and then runs at the normal rate, so a test can watch the kernel's
// day-end work happen (agent levels) without waiting for a real midnight. With
// CANDOR_TEST_MIDNIGHT_JUMP_TO_S as well, a SIGUSR2 moves the clock forward to that many seconds
// before the midnight (never back, never past it): the test signals once it has done what
// belongs before the boundary, instead of waiting out the rest of the lead. The server takes its
// time from `Date.now` only; it has no such setting itself.
const seconds = Number(process.env.CANDOR_TEST_MIDNIGHT_IN_S);
if (Number.isFinite(seconds) && seconds > 0) {
  const realNow = Date.now.bind(Date);
  const dayMs = 86_400_000;
  const start = realNow();
  const midnight = (Math.floor(start / dayMs) + 1) * dayMs;
  let offset = midnight - seconds * 1_000 - start;
  Date.now = () => realNow() + offset;
  const jumpTo = Number(process.env.CANDOR_TEST_MIDNIGHT_JUMP_TO_S);
  if (Number.isFinite(jumpTo) && jumpTo > 0) {
    process.on("SIGUSR2", () => {
      const forward = midnight - jumpTo * 1_000 - Date.now();
      if (forward > 0) offset += forward;
    });
  }
}
