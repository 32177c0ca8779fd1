import { z } from "zod";
import { OperatorReason } from "./operator-reason.ts";
import { defineEndpoint } from "./endpoint.ts";
import { DecimalString } from "./market.ts";
import { WithdrawNetwork } from "./wallet.ts";

/**
 * Crypto deposits (issue 16, spec recharge / rechargeList): each real user's deposit address per
 * network, derived from the operator's extended public key, and the token transfers seen to it
 * with their confirmations. Demo accounts cannot deposit.
 */

export const DepositAddressView = z.object({
  network: WithdrawNetwork,
  chainId: z.number().int(),
  /** True on the in-process local chain of `npm start` and tests: nothing on it has value. */
  testChain: z.boolean(),
  asset: z.string(),
  /** The token contract a deposit must be a transfer of (EIP-55). */
  token: z.string(),
  /** The user's deposit address (EIP-55). */
  address: z.string(),
  /** Smaller transfers are recorded but not credited. */
  minimum: DecimalString,
  /** Blocks (the transfer's own included) before it is credited. */
  confirmations: z.number().int(),
});
export type DepositAddressView = z.infer<typeof DepositAddressView>;

export const depositAddresses = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/deposit-addresses",
  summary: "The user's crypto deposit address on every network deposits are accepted on",
  tag: "wallet",
  auth: "user",
  response: z.object({ items: z.array(DepositAddressView) }),
  errors: ["demo_deposit_not_allowed"],
  description: "An empty list when this deployment watches no chain.",
});

export const ChainDepositState = z.enum(["confirming", "credited", "dropped", "below_minimum"]);
export type ChainDepositState = z.infer<typeof ChainDepositState>;

export const ChainDepositView = z.object({
  depositId: z.string(),
  network: WithdrawNetwork,
  asset: z.string(),
  /** What is (or was) credited: the token amount at the asset's decimals. */
  amount: DecimalString,
  txHash: z.string(),
  logIndex: z.number().int(),
  state: ChainDepositState,
  confirmations: z.number().int(),
  confirmationsRequired: z.number().int(),
  postingSeq: z.string().nullable(),
  seenAtMs: z.number().int(),
  creditedAtMs: z.number().int().nullable(),
});
export type ChainDepositView = z.infer<typeof ChainDepositView>;

export const chainDepositRecords = defineEndpoint({
  method: "GET",
  path: "/api/v1/wallet/chain-deposits",
  summary: "The user's crypto deposits, newest first, with confirmations",
  tag: "wallet",
  auth: "user",
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
  response: z.object({ items: z.array(ChainDepositView) }),
  errors: ["demo_deposit_not_allowed"],
});

/**
 * Development and tests only (CHAIN_MODE=local): mints the local chain's valueless test token
 * to an address, standing in for someone sending USDT. Absent on any other deployment.
 */
export const localChainMint = defineEndpoint({
  method: "POST",
  path: "/api/v1/operator/local-chain/mint",
  summary: "Operator, local chain only: mint test tokens to an address",
  tag: "operator",
  auth: "operator",
  body: z.strictObject({
    address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be an 0x address"),
    amount: z.string().regex(/^[1-9]\d{0,8}$/, "whole tokens, 1 to 999,999,999"),
    reason: OperatorReason,
  }),
  response: z.object({ txHash: z.string() }),
});
