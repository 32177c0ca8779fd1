import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints savings and mining products call (contract: savings.ts). */
export const savingsEndpoints = endpointTable({
  savingsPlans: { method: "GET", path: "/api/v1/savings/plans", auth: "none" },
  subscribeSavings: { method: "POST", path: "/api/v1/savings/subscriptions", auth: "user" },
  savingsSubscriptions: { method: "GET", path: "/api/v1/savings/subscriptions", auth: "user" },
  redeemSavingsEarly: {
    method: "POST",
    path: "/api/v1/savings/subscriptions/:subscriptionId/redeem",
    auth: "user",
  },
});
