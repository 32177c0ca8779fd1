import * as contract from "@candor/contract";
import { describe, expect, it } from "vitest";
import {
  bootstrapTokenOnly,
  operatorEndpointRoles,
  operatorRoles,
  roleMayCall,
} from "./operator-roles.ts";

interface EndpointLike {
  auth?: unknown;
  method?: unknown;
  path?: unknown;
}

const operatorEndpoints = (Object.values(contract) as unknown[])
  .filter((value): value is EndpointLike => typeof value === "object" && value !== null)
  .filter((value) => value.auth === "operator")
  .map((value) => `${String(value.method)} ${String(value.path)}`);

describe("operator role matrix", () => {
  it("has a role rule for every operator endpoint of the contract", () => {
    expect(operatorEndpoints.length).toBeGreaterThan(10);
    const missing = operatorEndpoints.filter(
      (key) => !(key in operatorEndpointRoles) && !bootstrapTokenOnly.includes(key),
    );
    expect(missing).toEqual([]);
  });

  it("lets admin call everything and denies endpoints without a rule", () => {
    for (const key of Object.keys(operatorEndpointRoles)) {
      const [method, path] = key.split(" ") as [string, string];
      expect(roleMayCall("admin", method, path)).toBe(true);
    }
    expect(roleMayCall("admin", "POST", "/api/v1/operator/unknown")).toBe(false);
  });

  it.each([
    ["POST /api/v1/operator/withdrawals/:withdrawalId/approve", ["finance", "admin"]],
    ["POST /api/v1/operator/deposits", ["finance", "admin"]],
    ["POST /api/v1/operator/identity/:submissionId/reject", ["compliance", "admin"]],
    ["GET /api/v1/operator/uploads/:uploadId", ["compliance", "admin"]],
    ["POST /api/v1/operator/notices", ["support", "admin"]],
    ["PUT /api/v1/operator/seconds/products", ["admin"]],
    ["POST /api/v1/operator/accounts", ["admin"]],
    ["GET /api/v1/operator/audit", ["compliance", "admin"]],
    ["POST /api/v1/operator/bootstrap", []],
    ["GET /api/v1/operator/users", ["support", "compliance", "finance", "admin"]],
    ["GET /api/v1/operator/users/:userId", ["support", "compliance", "finance", "admin"]],
    ["POST /api/v1/operator/users/:userId/freeze", ["support", "compliance", "admin"]],
    ["POST /api/v1/operator/users/:userId/unfreeze", ["support", "compliance", "admin"]],
    ["GET /api/v1/operator/system-accounts", ["finance", "admin"]],
    ["GET /api/v1/operator/accounts", ["admin"]],
    ["POST /api/v1/operator/adjustments/:adjustmentId/approve", ["finance", "admin"]],
  ])("%s → %j", (key, allowed) => {
    const [method, path] = key.split(" ") as [string, string];
    for (const role of operatorRoles) {
      expect(roleMayCall(role, method, path)).toBe(allowed.includes(role));
    }
  });
});
