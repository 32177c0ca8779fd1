import type { BankCardView } from "@candor/contract";
import { AppError } from "../../http/app-error.ts";
import type { AddressBookSession } from "./wallet.addresses.ts";
import type { BankCardRepository, BankCardRow } from "./wallet.repository.ts";

export interface BankCardsOptions {
  repository: Pick<BankCardRepository, "list" | "byId" | "insert" | "remove" | "count">;
  now: () => number;
  /** Most cards per user (default 10). */
  cardsMax?: number;
}

/**
 * A card or account number as stored: spaces and hyphens removed, letters upper-cased. 8–34
 * digits (card and account numbers cannot be told apart reliably, so no Luhn check), or an
 * IBAN whose check digits are right (ISO 13616: the rearranged number mod 97 is 1).
 */
export function checkedCardNumber(text: string): string {
  const compact = text.replace(/[\s-]/g, "").toUpperCase();
  if (/^\d{8,34}$/.test(compact)) return compact;
  if (/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact) && ibanValid(compact)) return compact;
  throw new AppError("bank_card_invalid");
}

function ibanValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** "•••• 1234": lists never show the whole number. */
export function maskedCardNumber(cardNumber: string): string {
  return `•••• ${cardNumber.slice(-4)}`;
}

/** What a withdrawal to the card shows the user: bank and masked number. */
export function cardLabel(card: Pick<BankCardRow, "bankName" | "cardNumber">): string {
  return `${card.bankName} ${maskedCardNumber(card.cardNumber)}`;
}

/** Names as typed, trimmed, without control characters (they end up on an operator's screen). */
function cleanText(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > 100 || /\p{Cc}/u.test(trimmed)) {
    throw new AppError("bank_card_invalid");
  }
  return trimmed;
}

/** Bank-card binding (spec §3 "Bank card"): real money only; numbers masked in lists. */
export class BankCards {
  private readonly cardsMax: number;

  constructor(private readonly options: BankCardsOptions) {
    this.cardsMax = options.cardsMax ?? 10;
  }

  async list(session: AddressBookSession) {
    requireReal(session);
    const rows = await this.options.repository.list(session.userId);
    return { items: rows.map(bankCardView) };
  }

  async add(
    session: AddressBookSession,
    input: { cardholder: string; bankName: string; branch: string; cardNumber: string },
  ): Promise<BankCardView> {
    requireReal(session);
    const card = {
      cardholder: cleanText(input.cardholder),
      bankName: cleanText(input.bankName),
      branch: cleanText(input.branch),
      cardNumber: checkedCardNumber(input.cardNumber),
    };
    if ((await this.options.repository.count(session.userId)) >= this.cardsMax) {
      throw new AppError("bank_card_limit");
    }
    const createdAtMs = this.options.now();
    const id = await this.options.repository.insert({
      ...card,
      userId: session.userId,
      createdAtMs,
    });
    if (id === undefined) throw new AppError("bank_card_exists");
    return bankCardView({ ...card, id, userId: session.userId, createdAtMs });
  }

  async remove(session: AddressBookSession, cardId: string) {
    requireReal(session);
    if (!(await this.options.repository.remove(session.userId, BigInt(cardId)))) {
      throw new AppError("bank_card_not_found");
    }
    return { deleted: true as const };
  }

  /** The user's card, for a withdrawal. */
  async own(session: AddressBookSession, cardId: string): Promise<BankCardRow> {
    const card = await this.options.repository.byId(session.userId, BigInt(cardId));
    if (!card) throw new AppError("bank_card_not_found");
    return card;
  }
}

function bankCardView(row: BankCardRow): BankCardView {
  return {
    cardId: String(row.id),
    cardholder: row.cardholder,
    bankName: row.bankName,
    branch: row.branch,
    cardNumberMasked: maskedCardNumber(row.cardNumber),
    createdAtMs: row.createdAtMs,
  };
}

/** Bank cards exist only to move real money in and out: the spec's general demo message. */
function requireReal(session: AddressBookSession): void {
  if (session.demoOnly || session.mode === "demo") throw new AppError("demo_funds_not_allowed");
}
