import type { WithdrawAddressView, WithdrawNetwork } from "@candor/contract";
import { getAddress } from "viem";
import { AppError } from "../../http/app-error.ts";
import type { WithdrawAddressRow, WithdrawAddressRepository } from "./wallet.repository.ts";

export interface WithdrawAddressBookOptions {
  repository: Pick<
    WithdrawAddressRepository,
    "list" | "byId" | "insert" | "update" | "remove" | "count"
  >;
  now: () => number;
  /** How long a new or changed address waits before it can receive withdrawals (default 24 h). */
  lockMs?: number;
  /** Most addresses per user (default 20). */
  addressesMax?: number;
}

/** The session as the address book sees it: the user and whether it is real money. */
export interface AddressBookSession {
  userId: bigint;
  mode: "real" | "demo";
  demoOnly: boolean;
}

/**
 * An address as saved: EIP-55 checksummed. A mixed-case address must carry a valid checksum
 * (one mistyped character is caught); an all-lower-case one carries none and is accepted as is.
 */
export function checkedAddress(text: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) throw new AppError("withdraw_address_invalid");
  const checksummed = getAddress(text.toLowerCase());
  const body = text.slice(2);
  const mixed = body !== body.toLowerCase() && body !== body.toUpperCase();
  if (mixed && text !== checksummed) throw new AppError("withdraw_address_invalid");
  // The zero address burns what is sent to it.
  if (/^0x0{40}$/.test(text)) throw new AppError("withdraw_address_invalid");
  return checksummed;
}

/** Same first and last four hex digits, different middle: what address poisoning imitates. */
export function looksAlike(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x !== y && x.slice(2, 6) === y.slice(2, 6) && x.slice(-4) === y.slice(-4);
}

/**
 * The withdrawal address book (spec tibidizhi, tibidizhiEdit): real money only; a new or
 * changed address is usable after the lock; a look-alike of another saved address is flagged.
 */
export class WithdrawAddressBook {
  private readonly lockMs: number;
  private readonly addressesMax: number;

  constructor(private readonly options: WithdrawAddressBookOptions) {
    this.lockMs = options.lockMs ?? 24 * 60 * 60_000;
    this.addressesMax = options.addressesMax ?? 20;
  }

  async list(session: AddressBookSession) {
    requireReal(session);
    const rows = await this.options.repository.list(session.userId);
    return { items: rows.map(view) };
  }

  async add(
    session: AddressBookSession,
    input: { network: WithdrawNetwork; address: string; remark: string },
  ) {
    requireReal(session);
    const address = checkedAddress(input.address);
    if ((await this.options.repository.count(session.userId)) >= this.addressesMax) {
      throw new AppError("withdraw_address_limit");
    }
    const now = this.options.now();
    const id = await this.options.repository.insert({
      userId: session.userId,
      network: input.network,
      address,
      remark: input.remark.trim(),
      usableFromMs: now + this.lockMs,
      createdAtMs: now,
    });
    if (id === undefined) throw new AppError("withdraw_address_exists");
    return this.saved(session.userId, id);
  }

  async edit(
    session: AddressBookSession,
    addressId: string,
    input: { network: WithdrawNetwork; address: string; remark: string },
  ) {
    requireReal(session);
    const row = await this.options.repository.byId(session.userId, BigInt(addressId));
    if (!row) throw new AppError("withdraw_address_not_found");
    const address = checkedAddress(input.address);
    const changed = address !== row.address || input.network !== row.network;
    const updated = await this.options.repository.update(session.userId, row.id, {
      network: input.network,
      address,
      remark: input.remark.trim(),
      // A changed destination waits again; a new remark does not.
      usableFromMs: changed ? this.options.now() + this.lockMs : row.usableFromMs,
    });
    if (!updated) throw new AppError("withdraw_address_exists");
    return this.saved(session.userId, row.id);
  }

  async remove(session: AddressBookSession, addressId: string) {
    requireReal(session);
    const removed = await this.options.repository.remove(session.userId, BigInt(addressId));
    if (!removed) throw new AppError("withdraw_address_not_found");
    return { deleted: true as const };
  }

  private async saved(userId: bigint, id: bigint) {
    const rows = await this.options.repository.list(userId);
    const row = rows.find((r) => r.id === id);
    if (!row) throw new AppError("internal_error");
    const similar = rows.find((r) => r.id !== id && looksAlike(r.address, row.address));
    return { address: view(row), similarTo: similar ? view(similar) : null };
  }
}

function requireReal(session: AddressBookSession): void {
  if (session.demoOnly || session.mode === "demo") {
    throw new AppError("demo_withdraw_not_allowed");
  }
}

function view(row: WithdrawAddressRow): WithdrawAddressView {
  return {
    addressId: String(row.id),
    network: row.network,
    address: row.address,
    remark: row.remark,
    usableFromMs: row.usableFromMs,
    createdAtMs: row.createdAtMs,
  };
}
