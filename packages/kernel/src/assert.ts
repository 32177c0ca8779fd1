/** Thrown when an invariant breaks: a bug, never an expected rejection. The server stops on it. */
export class AssertionError extends Error {
  override name = "AssertionError";
}

/** Checks one condition that must hold; a failure is a programmer error, not a user error. */
export function assert(condition: unknown, message = "assertion failed"): asserts condition {
  if (!condition) throw new AssertionError(message);
}
