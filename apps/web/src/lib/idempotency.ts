/** A key minted on the device that makes one request idempotent (a client order id, a grant's request id). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
