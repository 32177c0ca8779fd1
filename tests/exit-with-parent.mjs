// A test-only preload for server processes that tests start (tests/harness.ts): when the test
// process that started the server dies without stopping it (a killed or timed-out run), the
// server is re-parented and this ends it, instead of leaving it running on the machine.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, "SIGKILL");
}, 1_000).unref();
