import type {
  SavingsPlanView,
  SavingsSubscriptionView,
  SubscribeSavingsBody,
} from "@candor/contract";
import { callEndpoint } from "../../../lib/api-client.ts";
import { savingsEndpoints } from "./endpoints.ts";

/*
 * Savings plans and mining products of issue 22 (contract: packages/contract/src/savings.ts):
 * plans with their reserve, subscriptions, early redemption.
 */

export const savingsKeys = {
  all: ["savings"] as const,
  plans: (mode: "real" | "demo") => [...savingsKeys.all, "plans", mode] as const,
  subscriptions: (mode: "real" | "demo") => [...savingsKeys.all, "subscriptions", mode] as const,
};

export function fetchSavingsPlans(mode: "real" | "demo") {
  return callEndpoint(savingsEndpoints.savingsPlans, { query: { mode } });
}

export function subscribeSavings(body: SubscribeSavingsBody) {
  return callEndpoint(savingsEndpoints.subscribeSavings, { body });
}

export function fetchSavingsSubscriptions() {
  return callEndpoint(savingsEndpoints.savingsSubscriptions, { query: { limit: 100 } });
}

export function redeemSavingsEarly(subscriptionId: string) {
  return callEndpoint(savingsEndpoints.redeemSavingsEarly, { params: { subscriptionId } });
}

export type { SavingsPlanView, SavingsSubscriptionView };
