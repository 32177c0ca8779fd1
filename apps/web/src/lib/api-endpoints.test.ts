import * as contract from "@candor/contract";
import { describe, expect, it } from "vitest";
import type { EndpointRef } from "./api-client.ts";

/** Every feature's endpoint table (`features/<name>/api/endpoints.ts`), by file. */
const tables = import.meta.glob<Record<string, Record<string, EndpointRef>>>(
  "../features/*/api/endpoints.ts",
  { eager: true },
);

/** The web restates method, path and auth so its bundle carries no zod; they must match. */
describe("the features' endpoint tables", () => {
  it("exist for the features that call the API", () => {
    expect(Object.keys(tables).length).toBeGreaterThanOrEqual(6);
  });

  it("agree with packages/contract for every endpoint the web calls", () => {
    const byName = contract as unknown as Record<string, contract.EndpointSpec | undefined>;
    for (const [file, exports] of Object.entries(tables)) {
      for (const table of Object.values(exports)) {
        for (const [name, row] of Object.entries(table)) {
          if (name === "health") continue; // Not in the contract yet: see api-endpoints.ts.
          const spec = byName[name];
          expect(spec, `${file}: ${name}`).toBeDefined();
          expect(row, `${file}: ${name}`).toEqual({
            method: spec!.method,
            path: spec!.path,
            auth: spec!.auth,
          });
        }
      }
    }
  });

  it("call the health endpoint the server answers", () => {
    const health = tables["../features/health/api/endpoints.ts"]?.healthEndpoints?.health;
    expect(health).toEqual({ method: "GET", path: "/api/v1/health", auth: "none" });
  });
});
