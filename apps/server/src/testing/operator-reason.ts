/** The reason tests give operator actions (issue 17: every mutating operator call has one). */
export const testOperatorReason = "test: operator action";

/**
 * Test helper: the `payload` of an inject call, with `reason` added when it is a mutating call of
 * an operator endpoint whose body has none (other calls are unchanged).
 */
export function operatorPayload(
  method: string,
  url: string,
  payload: unknown,
): { payload?: object } {
  const operatorCall = url.includes("/api/v1/operator/") && method.toUpperCase() !== "GET";
  if (!operatorCall) return payload === undefined ? {} : { payload: payload as object };
  if (payload === undefined) return { payload: { reason: testOperatorReason } };
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) {
    return { payload: payload as object };
  }
  if ("reason" in payload) return { payload };
  return { payload: { ...payload, reason: testOperatorReason } };
}
