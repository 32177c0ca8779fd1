import type {
  EndpointInput,
  EndpointSpec,
  IdentityRejectReason,
  NewsCategory,
  OperatorUploadPurpose,
} from "@candor/contract";
import {
  ApiError,
  callEndpoint,
  callEndpointBlob,
  type EndpointCallInput,
  type EndpointRef,
} from "../../../lib/api-client.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import {
  clearOperatorSession,
  getOperatorSession,
  setOperatorSession,
  type OperatorRole,
} from "../lib/operator-session.ts";
import { adminEndpoints as api } from "./endpoints.ts";

/*
 * The back office's calls (issue 17): every one goes through `callEndpoint` with the operator's
 * bearer token from sessionStorage. A 401 on an operator endpoint means the operator session
 * ended: it is forgotten, and the back office shows the sign-in page.
 */

/** Calls an operator endpoint with the signed-in operator's token. */
export async function callOperator<E extends EndpointSpec>(
  endpoint: EndpointRef<E>,
  input: EndpointCallInput<E> = {},
) {
  const token = getOperatorSession()?.token;
  try {
    return await callEndpoint(endpoint, token ? { ...input, token } : input);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && endpoint.auth === "operator") {
      clearOperatorSession();
    }
    throw error;
  }
}

type Spec<R> = R extends EndpointRef<infer E> ? E : never;

export const adminKeys = {
  all: ["admin"] as const,
  me: () => [...adminKeys.all, "me"] as const,
  users: (q: string) => [...adminKeys.all, "users", q] as const,
  user: (userId: string) => [...adminKeys.all, "user", userId] as const,
  identity: (state: string) => [...adminKeys.all, "identity", state] as const,
  identityDetail: (id: string) => [...adminKeys.all, "identity-detail", id] as const,
  upload: (id: string) => [...adminKeys.all, "upload", id] as const,
  bankDeposits: (state: string) => [...adminKeys.all, "bank-deposits", state] as const,
  withdrawals: (status: string) => [...adminKeys.all, "withdrawals", status] as const,
  loans: () => [...adminKeys.all, "loans"] as const,
  loanProducts: (mode: string) => [...adminKeys.all, "loan-products", mode] as const,
  secondsProducts: (mode: string) => [...adminKeys.all, "seconds-products", mode] as const,
  savingsPlans: (mode: string) => [...adminKeys.all, "savings-plans", mode] as const,
  marketTerms: () => [...adminKeys.all, "market-terms"] as const,
  countryProducts: () => [...adminKeys.all, "country-products"] as const,
  limits: () => [...adminKeys.all, "limits"] as const,
  news: () => [...adminKeys.all, "news"] as const,
  notices: () => [...adminKeys.all, "notices"] as const,
  banners: () => [...adminKeys.all, "banners"] as const,
  vipLevels: () => [...adminKeys.all, "vip-levels"] as const,
  agentLevels: () => [...adminKeys.all, "agent-levels"] as const,
  activities: () => [...adminKeys.all, "activities"] as const,
  systemAccounts: () => [...adminKeys.all, "system-accounts"] as const,
  adjustments: () => [...adminKeys.all, "adjustments"] as const,
  audit: (filters: object) => [...adminKeys.all, "audit", filters] as const,
  operators: () => [...adminKeys.all, "operators"] as const,
};

// Sign-in and the authenticator.

export async function signInOperator(body: { email: string; password: string; code: string }) {
  const answer = await callEndpoint(api.operatorSignIn, { body });
  setOperatorSession(answer);
  return answer;
}

/** Creates the first admin with the deployment's bootstrap token (used once, never stored). */
export function bootstrapOperator(
  bootstrapToken: string,
  body: { email: string; displayName: string; password: string },
) {
  return callEndpoint(api.operatorBootstrap, { body, token: bootstrapToken });
}

export function confirmOperatorTotp(body: { email: string; password: string; code: string }) {
  return callEndpoint(api.operatorConfirmTotp, { body });
}

export async function signOutOperator() {
  try {
    await callOperator(api.operatorSignOut, {});
  } finally {
    clearOperatorSession();
  }
}

export function fetchOperatorMe() {
  return callOperator(api.operatorMe, {});
}

// Operators.

export function fetchOperators() {
  return callOperator(api.operatorListAccounts, {});
}

export function createOperator(body: {
  email: string;
  displayName: string;
  password: string;
  role: OperatorRole;
  reason: string;
}) {
  return callOperator(api.operatorCreateAccount, { body });
}

export function disableOperator(operatorId: string, reason: string) {
  return callOperator(api.operatorDisableAccount, { params: { operatorId }, body: { reason } });
}

export function enableOperator(operatorId: string, password: string, reason: string) {
  return callOperator(api.operatorEnableAccount, {
    params: { operatorId },
    body: { password, reason },
  });
}

export function fetchAuditLog(query: { limit?: number; userId?: string; operatorId?: string }) {
  return callOperator(api.operatorAuditLog, { query });
}

// Users.

export function searchUsers(q: string) {
  return callOperator(api.operatorSearchUsers, { query: { q, limit: 50 } });
}

export function fetchUserDetail(userId: string) {
  return callOperator(api.operatorUserDetail, { params: { userId } });
}

export function freezeUser(userId: string, reason: string) {
  return callOperator(api.operatorFreezeUser, { params: { userId }, body: { reason } });
}

export function unfreezeUser(userId: string, reason: string) {
  return callOperator(api.operatorUnfreezeUser, { params: { userId }, body: { reason } });
}

export function fetchSystemAccounts() {
  return callOperator(api.operatorSystemAccounts, {});
}

// Identity reviews.

export function fetchIdentityQueue(state: "under_review" | "passed" | "not_approved") {
  return callOperator(api.operatorListIdentityEndpoint, { query: { state, limit: 100 } });
}

export function fetchIdentityDetail(submissionId: string) {
  return callOperator(api.operatorIdentityDetailEndpoint, { params: { submissionId } });
}

export function approveIdentity(submissionId: string, reason: string) {
  return callOperator(api.operatorApproveIdentityEndpoint, {
    params: { submissionId },
    body: { reason: reason.trim() },
  });
}

/**
 * Refuses a submission: the user sees `rejectReason` (from the list) and, for `other`, the
 * operator's text; the same reason goes to the audit log.
 */
export function rejectIdentity(
  submissionId: string,
  input: { rejectReason: IdentityRejectReason; text?: string },
) {
  return callOperator(api.operatorRejectIdentityEndpoint, {
    params: { submissionId },
    body: {
      reason: input.rejectReason,
      ...(input.rejectReason === "other" && input.text ? { text: input.text.trim() } : {}),
    },
  });
}

/** An identity document's image, as a Blob for an object URL (the token is a header). */
export function fetchUploadImage(uploadId: string) {
  const token = getOperatorSession()?.token;
  return callEndpointBlob(api.operatorUploadFileEndpoint, {
    params: { uploadId },
    ...(token ? { token } : {}),
  });
}

// Bank deposits.

export function fetchBankDeposits(state: "pending" | "crediting" | "credited" | "rejected") {
  return callOperator(api.operatorListBankDepositsEndpoint, { query: { state } });
}

export function creditBankDeposit(depositId: string, reason: string) {
  return callOperator(api.operatorCreditBankDepositEndpoint, {
    params: { depositId },
    body: { reason: reason.trim() },
  });
}

export function rejectBankDeposit(depositId: string, reason: string) {
  return callOperator(api.operatorRejectBankDepositEndpoint, {
    params: { depositId },
    body: { reason: reason.trim() },
  });
}

// Withdrawals.

export type WithdrawalStatus =
  "pending" | "approved" | "sent" | "completed" | "rejected" | "cancelled";

export function fetchWithdrawals(status: WithdrawalStatus) {
  return callOperator(api.operatorWithdrawals, { query: { status, limit: 100 } });
}

export function approveWithdrawalAction(withdrawalId: string, reason: string) {
  return callOperator(api.approveWithdrawal, {
    params: { withdrawalId },
    body: { reason: reason.trim() },
  });
}

export function markWithdrawalSentAction(withdrawalId: string, txHash: string, reason: string) {
  return callOperator(api.markWithdrawalSent, {
    params: { withdrawalId },
    body: { ...{ txHash: txHash.trim() }, reason: reason.trim() },
  });
}

export function completeWithdrawalAction(withdrawalId: string, reason: string) {
  return callOperator(api.completeWithdrawal, {
    params: { withdrawalId },
    body: { reason: reason.trim() },
  });
}

export function rejectWithdrawalAction(withdrawalId: string, reason: string) {
  return callOperator(api.rejectWithdrawal, {
    params: { withdrawalId },
    body: { reason: reason.trim() },
  });
}

// Loans.

export function fetchPendingLoans() {
  return callOperator(api.pendingLoans, {});
}

export function decideLoanAction(loanId: string, approve: boolean, reason: string) {
  return callOperator(api.decideLoan, {
    params: { loanId },
    body: { approve, reason: reason.trim() },
  });
}

export function fetchLoanProducts(mode: "real" | "demo") {
  return callEndpoint(api.loanProducts, { query: { mode } });
}

export function configureLoanProductAction(
  body: Omit<EndpointInput<Spec<typeof api.configureLoanProduct>>, "reason">,
  reason: string,
) {
  return callOperator(api.configureLoanProduct, {
    body: { ...body, reason: reason.trim() },
  });
}

// Content.

export type ContentLocale =
  "en" | "zh-Hant" | "jp" | "kr" | "th" | "es" | "pt" | "de" | "fr" | "sv" | "it" | "ru";
export type ContentTexts = { en: { title: string; body: string } } & Partial<
  Record<Exclude<ContentLocale, "en">, { title: string; body: string }>
>;

export function fetchNews() {
  return callEndpoint(api.listNews, { query: { limit: 20, offset: 0 } });
}

export function fetchNotices() {
  return callEndpoint(api.listNotices, { query: { limit: 20, offset: 0 } });
}

export function publishNewsAction(
  input: { category: NewsCategory; symbol: string | null; texts: ContentTexts },
  reason: string,
) {
  return callOperator(api.publishNews, {
    body: { ...input, reason: reason.trim() },
  });
}

export function publishNoticeAction(input: { texts: ContentTexts }, reason: string) {
  return callOperator(api.publishNotice, {
    body: { ...input, reason: reason.trim() },
  });
}

// Product configuration.

export function fetchSecondsProducts(mode: "real" | "demo") {
  return callEndpoint(api.secondsProducts, { query: { mode } });
}

export function configureSecondsProductAction(
  body: Omit<EndpointInput<Spec<typeof api.configureSecondsProduct>>, "reason">,
  reason: string,
) {
  return callOperator(api.configureSecondsProduct, {
    body: { ...body, reason: reason.trim() },
  });
}

// Home-page banners.

export function fetchBanners() {
  return callOperator(api.operatorBanners);
}

export function publishBannerAction(
  body: Omit<EndpointInput<Spec<typeof api.publishBanner>>, "reason">,
  reason: string,
) {
  return callOperator(api.publishBanner, { body: { ...body, reason: reason.trim() } });
}

/** Uploads a banner image; the answer's id goes into the banner. */
/** Uploads an operator's image (a banner's, or one for a support answer); its upload id. */
export async function uploadOperatorImage(
  file: Blob,
  purpose: OperatorUploadPurpose,
): Promise<string> {
  const form = new FormData();
  form.append("file", file);
  const answer = await callOperator(api.operatorUploadImageEndpoint, { query: { purpose }, form });
  return answer.upload.uploadId;
}

export function withdrawBannerAction(bannerId: string, reason: string) {
  return callOperator(api.withdrawBanner, {
    params: { bannerId },
    body: { reason: reason.trim() },
  });
}

// Programmes: VIP levels and deposit-bonus activities.

export function fetchVipLevels() {
  return callOperator(api.operatorVipLevels);
}

/** Sets (or, with `remove`, deletes) one VIP level of one mode. */
export function configureVipLevelAction(
  body: Omit<EndpointInput<Spec<typeof api.configureVipLevel>>, "reason">,
  reason: string,
) {
  return callOperator(api.configureVipLevel, { body: { ...body, reason: reason.trim() } });
}

export function fetchAgentLevels() {
  return callOperator(api.operatorAgentLevels);
}

/** Sets (or, with `remove`, deletes) one agent level of one mode. */
export function configureAgentLevelAction(
  body: Omit<EndpointInput<Spec<typeof api.configureAgentLevel>>, "reason">,
  reason: string,
) {
  return callOperator(api.configureAgentLevel, { body: { ...body, reason: reason.trim() } });
}

export function fetchOperatorActivities() {
  return callOperator(api.operatorListActivities);
}

/** Defines a deposit-bonus activity (an id is defined once). */
export function defineActivityAction(
  body: Omit<EndpointInput<Spec<typeof api.defineActivity>>, "reason">,
  reason: string,
) {
  return callOperator(api.defineActivity, { body: { ...body, reason: reason.trim() } });
}

/**
 * Funds a mode's promotion account, which backs every activity's bonuses in that asset: real
 * money put in (with the operator's reference), or demo money. A journaled credit, once per id.
 */
export function fundPromotionAction(
  input: { mode: "real" | "demo"; asset: string; amount: string; reference: string },
  reason: string,
) {
  const reference = input.reference.trim();
  return callOperator(api.fundPromotion, {
    body: {
      id: newIdempotencyKey(),
      mode: input.mode,
      asset: input.asset.trim(),
      amount: input.amount.trim(),
      ...(reference ? { reference } : {}),
      reason: reason.trim(),
    },
  });
}

// Market fees, leverage caps, per-country switches, limits.

export function fetchMarketTerms() {
  return callOperator(api.operatorMarketTerms);
}

export function setSpotFeesAction(
  marketId: string,
  body: { feeBpsMaker: number; feeBpsTaker: number },
  reason: string,
) {
  return callOperator(api.operatorSetSpotFees, {
    params: { marketId },
    body: { ...body, reason: reason.trim() },
  });
}

export function setPerpTermsAction(
  marketId: string,
  body: { feeBpsMaker: number; feeBpsTaker: number; leverageMax: number },
  reason: string,
) {
  return callOperator(api.operatorSetPerpTerms, {
    params: { marketId },
    body: { ...body, reason: reason.trim() },
  });
}

export function fetchCountryProducts() {
  return callOperator(api.operatorCountryProducts);
}

export function setCountryProductsAction(
  country: string,
  blocked: EndpointInput<Spec<typeof api.operatorSetCountryProducts>>["blocked"],
  reason: string,
) {
  return callOperator(api.operatorSetCountryProducts, {
    params: { country },
    body: { blocked, reason: reason.trim() },
  });
}

export function fetchLimits() {
  return callOperator(api.operatorLimits);
}

/** One change of the limits (a withdrawal's terms, an amount, the tier), with its reason. */
export function setLimitAction(change: LimitChange, reason: string) {
  return callOperator(api.operatorSetLimit, { body: { ...change, reason: reason.trim() } });
}

type SetLimitBody = EndpointInput<Spec<typeof api.operatorSetLimit>>;
/** A change of `setLimitAction`, without the reason the form adds. */
export type LimitChange = SetLimitBody extends infer B
  ? B extends unknown
    ? Omit<B, "reason">
    : never
  : never;

export function fetchSavingsPlans(mode: "real" | "demo") {
  return callEndpoint(api.savingsPlans, { query: { mode } });
}

export function defineSavingsPlanAction(
  body: Omit<EndpointInput<Spec<typeof api.defineSavingsPlan>>, "reason">,
  reason: string,
) {
  return callOperator(api.defineSavingsPlan, {
    body: { ...body, reason: reason.trim() },
  });
}

// Funding of system accounts: each is a journaled credit of money the operator put in, with an
// idempotency key minted here and the operator's reference; none sets a balance.

export type FundingTarget = "house" | "market_maker" | "savings_yield" | "loan_pool" | "user";

export interface FundingInput {
  target: FundingTarget;
  mode: "real" | "demo";
  asset: string;
  amount: string;
  reference: string;
  /** Only for `user`: the user to credit. */
  ownerId?: string;
}

export function fundAction(input: FundingInput, reason: string) {
  const id = newIdempotencyKey();
  const common = { amount: input.amount, reference: input.reference.trim() };
  switch (input.target) {
    case "house":
      return callOperator(api.fundHouse, {
        body: { ...{ id, assetId: input.asset, ...common }, reason: reason.trim() },
      });
    case "market_maker":
      return callOperator(api.marketMakerFundingEndpoint, {
        body: { ...{ id, assetId: input.asset, ...common }, reason: reason.trim() },
      });
    case "savings_yield":
      return callOperator(api.fundSavingsYield, {
        body: { ...{ id, mode: input.mode, asset: input.asset, ...common }, reason: reason.trim() },
      });
    case "loan_pool":
      return callOperator(api.fundLoanPool, {
        body: {
          ...{ id, mode: input.mode, assetId: input.asset, ...common },
          reason: reason.trim(),
        },
      });
    case "user":
      return callOperator(api.operatorDepositEndpoint, {
        body: {
          ...{ id, ownerId: input.ownerId ?? "", assetId: input.asset, ...common },
          reason: reason.trim(),
        },
      });
  }
}

// Manual adjustments above the two-person limit wait for a second, different operator.

export function fetchAdjustments() {
  return callOperator(api.operatorListAdjustments, { query: { status: "pending", limit: 100 } });
}

export function approveAdjustment(adjustmentId: string, reason: string) {
  return callOperator(api.operatorApproveAdjustment, {
    params: { adjustmentId },
    body: { reason: reason.trim() },
  });
}

export function rejectAdjustment(adjustmentId: string, reason: string) {
  return callOperator(api.operatorRejectAdjustment, {
    params: { adjustmentId },
    body: { reason: reason.trim() },
  });
}

export function fundStockInventoryAction(
  input: { mode: "real" | "demo"; instrumentId: string; quantity: string; reference: string },
  reason: string,
) {
  return callOperator(api.fundStockInventory, {
    body: {
      ...{ requestId: newIdempotencyKey(), direction: "add", ...input },
      reason: reason.trim(),
    },
  });
}
