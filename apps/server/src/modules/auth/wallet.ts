import { randomBytes } from "node:crypto";
import { getAddress, recoverMessageAddress, type Hex } from "viem";
import { createSiweMessage, parseSiweMessage } from "viem/siwe";
import { walletChainIds } from "@candor/contract";
import { AppError } from "../../http/app-error.ts";
import type { AuthRepository } from "./auth.repository.ts";

/** What the wallet is asked to sign. Only this exact statement is accepted. */
export const walletStatement =
  "Sign in to Candor. This only proves that you own this address: it sends no transaction and approves no token spending.";
export const walletNonceLifetimeMs = 5 * 60_000;

/** Where the app is served, as SIWE sees it: the domain (host[:port]) and the origin URI. */
export interface SiweOrigin {
  domain: string;
  uri: string;
}

/** Issues a single-use nonce bound to one address and chain, and the message to sign. */
export async function createWalletNonce(
  repository: Pick<AuthRepository, "insertWalletNonce" | "deleteWalletNoncesExpiredBefore">,
  nowMs: number,
  origin: SiweOrigin,
  address: string,
  chainId: number,
) {
  const nonce = randomBytes(16).toString("hex");
  const issuedAt = new Date(nowMs);
  const expiresAt = new Date(nowMs + walletNonceLifetimeMs);
  await repository.insertWalletNonce({
    nonce,
    address: address.toLowerCase(),
    chainId,
    issuedAt,
    expiresAt,
  });
  await repository.deleteWalletNoncesExpiredBefore(new Date(nowMs - 3_600_000));
  const message = createSiweMessage({
    address: getAddress(address),
    chainId,
    domain: origin.domain,
    uri: origin.uri,
    nonce,
    issuedAt,
    expirationTime: expiresAt,
    statement: walletStatement,
    version: "1",
  });
  return { nonce, message, issuedAt, expiresAt };
}

/**
 * Checks a signed EIP-4361 message: signature by the claimed address, our domain and URI, an
 * accepted chain, our statement, issued-at and expiry, and a nonce that was issued for this
 * address and chain, is unexpired and is used up now. Returns the checksummed address.
 */
export async function verifyWalletSignIn(
  repository: Pick<AuthRepository, "useWalletNonce">,
  nowMs: number,
  origin: SiweOrigin,
  input: { address: string; message: string; signature: string },
): Promise<string> {
  const fields = parseSiweMessage(input.message);
  const address = fields.address?.toLowerCase();
  const chainId = fields.chainId;
  const issuedAtMs = fields.issuedAt?.getTime();
  const wellFormed =
    address === input.address.toLowerCase() &&
    fields.domain === origin.domain &&
    fields.uri !== undefined &&
    (fields.uri === origin.uri || fields.uri.startsWith(`${origin.uri}/`)) &&
    fields.version === "1" &&
    fields.statement === walletStatement &&
    chainId !== undefined &&
    (walletChainIds as readonly number[]).includes(chainId) &&
    typeof fields.nonce === "string" &&
    issuedAtMs !== undefined &&
    !Number.isNaN(issuedAtMs) &&
    (fields.expirationTime === undefined || fields.expirationTime.getTime() > nowMs) &&
    (fields.notBefore === undefined || fields.notBefore.getTime() <= nowMs);
  if (!wellFormed) throw new AppError("wallet_signature_invalid");

  let signer: string;
  try {
    signer = await recoverMessageAddress({
      message: input.message,
      signature: input.signature as Hex,
    });
  } catch {
    throw new AppError("wallet_signature_invalid");
  }
  if (signer.toLowerCase() !== address) throw new AppError("wallet_signature_invalid");

  // Use the nonce up atomically: a replay, a nonce of another address or chain, or a message
  // not made from this nonce request (different issued-at) all fail here.
  const used = await repository.useWalletNonce({
    nonce: fields.nonce!,
    address,
    chainId: chainId!,
    issuedAt: new Date(issuedAtMs!),
    at: new Date(nowMs),
  });
  if (!used) throw new AppError("wallet_nonce_invalid");
  return getAddress(address);
}
