import { getAssets, parseAmount } from "@candor/kernel";
import { AppError } from "../../http/app-error.ts";
import { realFundingCommand, type KernelGateway } from "./market-maker.ts";

/**
 * The operator's side of the labelled market maker: real inventory is money the operator
 * actually put in, credited by a journaled deposit with the operator's reference.
 */
export class MarketMakerService {
  constructor(private readonly engine: KernelGateway) {}

  /** Credits real inventory (idempotent by `body.id`); bad input changes nothing. */
  async fund(body: {
    /** Idempotency key of the credit. */
    id: string;
    assetId: string;
    /** Decimal string at the asset's decimals. */
    amount: string;
    /** The operator's reference (bank transfer, …), shown on the statement. */
    reference: string;
  }): Promise<{ credited: true; duplicate: boolean }> {
    const asset = this.engine.query((s) => getAssets(s).find((a) => a.assetId === body.assetId));
    const amount = asset ? parseAmount(body.amount, asset.scale) : undefined;
    if (!asset || !amount?.ok || amount.value <= 0n) {
      throw new AppError("validation_failed", [
        {
          path: asset ? "body.amount" : "body.assetId",
          message: asset ? "amount_invalid" : "asset_not_found",
        },
      ]);
    }
    const { result, duplicate } = await this.engine.submit(
      realFundingCommand(body.assetId, amount.value, body.reference, "operator", body.id),
    );
    if (!result.ok) {
      throw new AppError("validation_failed", [{ path: "body", message: "rejected" }]);
    }
    return { credited: true, duplicate: duplicate ?? false };
  }
}
