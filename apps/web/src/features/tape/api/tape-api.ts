import { callEndpoint, endpointUrl } from "../../../lib/api-client.ts";
import { tapeEndpoints } from "./endpoints.ts";

/** Every query key of the tape viewer. */
export const tapeKeys = {
  all: ["tape"] as const,
  tick: (instrumentId: string, tickId: string) =>
    [...tapeKeys.all, "tick", instrumentId, tickId] as const,
};

/** Ticks of an instrument on each side of the one shown. */
export const tickNeighbours = 10;

/** GET /api/v1/tape/tick: one tick and its neighbours. */
export function fetchTick(instrumentId: string, tickId: string) {
  return callEndpoint(tapeEndpoints.tapeTickEndpoint, {
    query: { instrumentId, tickId, around: tickNeighbours },
  });
}

/** The raw public tape at one journal sequence, as JSON (for people who check by hand). */
export function rawTapeUrl(sequence: string): string {
  return endpointUrl(tapeEndpoints.tapeEndpoint.path, {}, { from: sequence, to: sequence });
}
