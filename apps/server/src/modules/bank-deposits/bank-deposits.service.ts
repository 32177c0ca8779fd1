import {
  isErrorCode,
  type BankDepositState,
  type BankDepositView,
  type BankDetailsView,
} from "@candor/contract";
import { formatAmount, getAssets, parseAmount } from "@candor/kernel";
import type { Database } from "../../db/database.ts";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { AppError } from "../../http/app-error.ts";
import type { OperatorService } from "../operator/operator.service.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import { BankDepositsRepository, type BankDepositRow } from "./bank-deposits.repository.ts";

/** The operator's bank account and the assets a bank transfer can be credited in. */
export interface BankDepositSettings {
  /** Null: bank deposits are off (no BANK_ACCOUNT_NUMBER configured). */
  bank: BankDetailsView | null;
  /** Asset ids (BANK_DEPOSIT_ASSETS), e.g. a fiat asset or USDT. */
  assets: readonly string[];
}

export interface BankDepositsOptions {
  database: Database;
  engine: EngineSubmitQuery;
  now: () => number;
  uploads: UploadsService;
  /** The journaled operator deposit (`credit_deposit` with the operator named). */
  operator: OperatorService;
  settings: BankDepositSettings;
}

/** Who acts through the operator token (one operator account until operator accounts exist). */

/**
 * Bank deposits: a user's request with a payment-proof image, credited or rejected by an
 * operator. Nothing is credited automatically; crediting goes through the operator deposit
 * path, so the statement names the operator and the request (`bank_deposit:<id>`).
 */
export class BankDepositsService {
  private readonly repository: BankDepositsRepository;

  constructor(private readonly options: BankDepositsOptions) {
    this.repository = new BankDepositsRepository(options.database);
  }

  depositOptions() {
    return {
      bank: this.options.settings.bank,
      assets: this.assets().map((a) => ({ assetId: a.assetId, decimals: a.scale })),
      maxUploadBytes: this.options.uploads.limits.maxBytes,
    };
  }

  async create(
    user: AuthUser,
    input: { assetId: string; amount: string; proofUploadId: string },
  ): Promise<BankDepositView> {
    if (user.demoOnly || user.mode === "demo") throw new AppError("demo_deposit_not_allowed");
    if (!this.options.settings.bank) throw new AppError("bank_deposit_unavailable");
    const asset = this.assets().find((a) => a.assetId === input.assetId);
    if (!asset) throw new AppError("asset_not_found");
    const amount = parseAmount(input.amount, asset.scale);
    if (!amount.ok) {
      const code = amount.code;
      throw new AppError(isErrorCode(code) ? code : "amount_malformed", [
        { path: "body.amount", message: code },
      ]);
    }
    const ownerId = String(user.id);
    const proof = await this.options.uploads.ownedBy(input.proofUploadId, ownerId);
    if (!proof || proof.purpose !== "bank_deposit_proof") throw new AppError("upload_not_found");
    const row = await this.repository.insert({
      ownerId,
      assetId: asset.assetId,
      amount: amount.value,
      proofUploadId: proof.id,
      atMs: this.options.now(),
    });
    if (!row) throw new AppError("bank_deposit_proof_used");
    return this.view(row);
  }

  async list(user: AuthUser): Promise<BankDepositView[]> {
    const rows = await this.repository.ofOwner(String(user.id), 100);
    return rows.map((row) => this.view(row));
  }

  async operatorList(state: BankDepositState) {
    const rows = await this.repository.inState(state, 200);
    return rows.map((row) => this.operatorView(row));
  }

  /**
   * Credits a request exactly once: pending → crediting (one caller wins), then the operator
   * deposit with command id `operator_deposit:bank_deposit:<id>` (the kernel applies an id
   * once, so a second click or a retry after a crash between the steps credits nothing more),
   * then → credited with the posting.
   */
  async credit(id: string, operatorId: string) {
    const found = await this.repository.find(id);
    if (!found) throw new AppError("bank_deposit_not_found");
    if (found.state === "rejected") throw new AppError("bank_deposit_closed");
    if (found.state === "credited") return { deposit: this.operatorView(found), duplicate: true };
    // Every click past this point submits the same command id: the kernel applies it once, and
    // the one click it applied for is the one that credited (whichever reached it first).
    await this.repository.startCredit(id, operatorId);
    const asset = this.assetOf(found.assetId);
    const applied = await this.options.operator.deposit(
      {
        id: `bank_deposit:${found.id}`,
        ownerId: found.ownerId,
        assetId: found.assetId,
        amount: formatAmount(found.amount, asset.scale),
        reference: `bank_deposit:${found.id}`,
      },
      operatorId,
    );
    await this.repository.finishCredit(id, applied.postingSeq, this.options.now());
    const after = (await this.repository.find(id))!;
    return { deposit: this.operatorView(after), duplicate: applied.duplicate };
  }

  async reject(id: string, reason: string, operatorId: string) {
    const rejected = await this.repository.reject(id, reason, operatorId, this.options.now());
    if (rejected) return { deposit: this.operatorView(rejected) };
    const found = await this.repository.find(id);
    throw new AppError(found ? "bank_deposit_closed" : "bank_deposit_not_found");
  }

  private assets() {
    const allowed = this.options.settings.assets;
    return this.options.engine.query((state) =>
      getAssets(state).filter((a) => allowed.includes(a.assetId)),
    );
  }

  private assetOf(assetId: string) {
    const asset = this.options.engine.query((state) =>
      getAssets(state).find((a) => a.assetId === assetId),
    );
    if (!asset) throw new AppError("asset_not_found");
    return asset;
  }

  private view(row: BankDepositRow): BankDepositView {
    return {
      depositId: row.id,
      assetId: row.assetId,
      amount: formatAmount(row.amount, this.assetOf(row.assetId).scale),
      state: row.state,
      proofUploadId: row.proofUploadId,
      rejectReason: row.rejectReason,
      postingSeq: row.postingSeq,
      createdAtMs: row.createdAtMs,
      decidedAtMs: row.decidedAtMs,
    };
  }

  private operatorView(row: BankDepositRow) {
    return {
      ...this.view(row),
      ownerId: row.ownerId,
      proofUrl: `/api/v1/operator/uploads/${row.proofUploadId}`,
    };
  }
}
