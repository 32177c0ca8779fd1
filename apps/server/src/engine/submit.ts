import { isOpen, referralInviterOf, type Mode, type RejectCode } from "@candor/kernel";
import { AppError } from "../http/app-error.ts";
import type { CandorCommand, CandorEngine, Submitted } from "./kernel-port.ts";
import { errorCodeOf } from "./reject-codes.ts";

/**
 * The one way modules reach the engine: submit commands (through the journal) and open ledger
 * accounts. Modules take the engine as a `Pick` of what they use, so tests can pass a smaller one.
 */
export type EngineSubmit = Pick<CandorEngine, "submit">;
export type EngineSubmitQuery = Pick<CandorEngine, "submit" | "query">;

/**
 * Journals a command and waits until it is durable and applied. Kernel rejections come back in
 * `result`. A failed submit means the command was NOT acknowledged (the journal stopped or
 * failed); it answers `service_unavailable`, and the client retries with the same id.
 */
export async function submit<C extends CandorCommand>(
  engine: EngineSubmit,
  command: C,
): Promise<Submitted<C>> {
  try {
    // The kernel answers a command of type C with ResultOf<C>; the engine's port is not generic.
    return (await engine.submit(command)) as Submitted<C>;
  } catch (error) {
    throw new AppError("service_unavailable", undefined, { cause: error });
  }
}

/**
 * The id of the command that opens an owner's accounts in a mode. One id per owner and mode, so
 * every caller's open is the same command and a repeat is a duplicate.
 */
export function openAccountsCommandId(ownerId: string, mode: Mode): string {
  return `open_accounts:${ownerId}:${mode}`;
}

/**
 * Opens an owner's ledger accounts in a mode (demo accounts come with their demo money).
 * Idempotent: accounts already open are success, and cost no journal record. A refusal comes
 * back as the kernel's code (an invalid owner id, demo for a system owner, ...).
 */
export async function openAccounts(
  engine: EngineSubmitQuery,
  ownerId: string,
  mode: Mode,
): Promise<{ ok: true } | { ok: false; code: RejectCode }> {
  if (engine.query((state) => isOpen(state, ownerId, mode))) return { ok: true };
  const applied = await submit(engine, {
    type: "open_accounts",
    id: openAccountsCommandId(ownerId, mode),
    ownerId,
    mode,
  });
  if (applied.result.ok || applied.result.code === "accounts_already_open") return { ok: true };
  return { ok: false, code: applied.result.code };
}

/** Opens an owner's accounts (see `openAccounts`); a refusal is thrown as its API error. */
export async function ensureAccounts(
  engine: EngineSubmitQuery,
  ownerId: string,
  mode: Mode,
): Promise<void> {
  const opened = await openAccounts(engine, ownerId, mode);
  if (!opened.ok) throw new AppError(errorCodeOf(opened.code));
}

/**
 * `AppDeps.accounts`: the auth module opens a user's accounts when the user registers or signs
 * in to a mode for the first time.
 */
export function accountOpener(engine: EngineSubmitQuery) {
  return {
    async open(userId: bigint, mode: Mode): Promise<void> {
      const opened = await openAccounts(engine, userId.toString(), mode);
      if (!opened.ok) {
        throw new Error(`opening ${mode} accounts of user ${userId} failed: ${opened.code}`);
      }
    },
    async link(inviterId: bigint, inviteeId: bigint, mode: Mode): Promise<void> {
      // Already linked in the kernel: no journal record.
      if (engine.query((s) => referralInviterOf(s, mode, inviteeId.toString())) !== null) return;
      const applied = await submit(engine, {
        type: "referral_link",
        id: `referral_link:${inviteeId}:${mode}`,
        inviterId: inviterId.toString(),
        inviteeId: inviteeId.toString(),
        mode,
      });
      if (!applied.result.ok && applied.result.code !== "referral_exists") {
        throw new Error(`linking user ${inviteeId} to ${inviterId} failed: ${applied.result.code}`);
      }
    },
  };
}
