import type { EndpointBody, LimitsView, operatorSetLimit } from "@candor/contract";
import { assetAmountParser } from "../../engine/asset-amount.ts";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";
import type { Limits } from "./limits-store.ts";

/** The limits as the back office and the public settings list them (sorted tables). */
export function limitsView(limits: Limits): LimitsView {
  const { withdrawals } = limits;
  return {
    withdrawals: [
      ...Object.entries(withdrawals.terms).flatMap(([asset, networks]) =>
        Object.entries(networks).flatMap(([network, terms]) =>
          terms ? [{ asset, network, minimum: terms.minimum, fee: terms.fee }] : [],
        ),
      ),
      ...Object.entries(withdrawals.bankTerms ?? {}).map(([asset, terms]) => ({
        asset,
        network: "bank",
        minimum: terms.minimum,
        fee: terms.fee,
      })),
    ],
    withdrawalTwoApprovalsAbove: amounts(withdrawals.twoApprovalsAbove),
    adjustmentTwoApprovalsAbove: amounts(limits.adjustmentTwoApprovalsAbove),
    transferDailyLimits: amounts(limits.transferDailyLimits),
    withdrawRequiresIdentity: limits.withdrawRequiresIdentity,
    withdrawAdvancedAbove: amounts(limits.withdrawAdvancedAbove),
  };
}

/** asset → amount, as a list sorted by asset. */
function amounts(table: Readonly<Record<string, string>>) {
  return Object.entries(table)
    .map(([asset, amount]) => ({ asset, amount }))
    .sort((a, b) => (a.asset < b.asset ? -1 : 1));
}

/** A change as the endpoint takes it (its reason is the audit log's). */
type LimitChange = EndpointBody<typeof operatorSetLimit>;

/**
 * One operator's change applied to the limits, or an `AppError` that changes nothing. Amounts
 * are checked against the asset's scale in the kernel (unknown asset, malformed, over-precise)
 * and kept as the operator wrote them. A withdrawal's pair must already be offered (which chains
 * and assets pay out is the deployment's, not a setting), its minimum above its fee; every
 * amount but a daily transfer limit (0 stops transfers) is above zero.
 */
export function changedLimits(
  engine: Pick<EngineSubmitQuery, "query">,
  limits: Limits,
  change: LimitChange,
): Limits {
  if (change.kind === "identity") {
    return { ...limits, withdrawRequiresIdentity: change.withdrawRequiresIdentity };
  }
  const parse = assetAmountParser(engine, change.asset);
  if (change.kind === "amount") {
    if (parse(change.amount) === 0n && change.table !== "transferDailyLimits") {
      throw new AppError("limit_must_be_positive");
    }
    const entry = { [change.asset]: change.amount };
    if (change.table === "withdrawalTwoApprovalsAbove") {
      const { withdrawals } = limits;
      const twoApprovalsAbove = { ...withdrawals.twoApprovalsAbove, ...entry };
      return { ...limits, withdrawals: { ...withdrawals, twoApprovalsAbove } };
    }
    return { ...limits, [change.table]: { ...limits[change.table], ...entry } };
  }
  if (parse(change.minimum) <= parse(change.fee)) {
    throw new AppError("limit_minimum_not_above_fee");
  }
  const terms = { minimum: change.minimum, fee: change.fee };
  const { withdrawals } = limits;
  if (change.network === "bank") {
    if (!withdrawals.bankTerms?.[change.asset]) throw new AppError("limit_pair_not_offered");
    const bankTerms = { ...withdrawals.bankTerms, [change.asset]: terms };
    return { ...limits, withdrawals: { ...withdrawals, bankTerms } };
  }
  const networks = withdrawals.terms[change.asset];
  if (!networks?.[change.network]) throw new AppError("limit_pair_not_offered");
  const assetTerms = { ...networks, [change.network]: terms };
  return {
    ...limits,
    withdrawals: { ...withdrawals, terms: { ...withdrawals.terms, [change.asset]: assetTerms } },
  };
}
