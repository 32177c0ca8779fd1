import type { EndpointBody, EndpointData, operatorDepositEndpoint } from "@candor/contract";
import { getAssets, parseAmount } from "@candor/kernel";
import type { CandorCommand, CandorEngine, Submitted } from "../../engine/kernel-port.ts";
import { AppError } from "../../http/app-error.ts";

/**
 * What the operator does by hand, always as journaled kernel commands (never a direct write):
 * today, crediting a user's real deposit. No SQL, so the module has no repository.
 */
export class OperatorService {
  constructor(private readonly engine: CandorEngine) {}

  /** Credits a real deposit once per `body.id`; a repeat answers the first result. */
  async deposit(
    body: EndpointBody<typeof operatorDepositEndpoint>,
  ): Promise<EndpointData<typeof operatorDepositEndpoint>> {
    const asset = this.engine.query((state) =>
      getAssets(state).find((a) => a.assetId === body.assetId),
    );
    if (!asset)
      throw new AppError("command_rejected", [
        { path: "body.assetId", message: "asset_not_found" },
      ]);
    const amount = parseAmount(body.amount, asset.scale);
    if (!amount.ok)
      throw new AppError("command_rejected", [{ path: "body.amount", message: amount.code }]);
    // Accounts open on first credit; a second open is refused harmlessly.
    const opened = await this.submit({
      type: "open_accounts",
      id: `operator_open:${body.ownerId}:real`,
      ownerId: body.ownerId,
      mode: "real",
    });
    if (!opened.result.ok && opened.result.code !== "accounts_already_open") {
      throw new AppError("command_rejected", [
        { path: "body.ownerId", message: opened.result.code },
      ]);
    }
    const applied = await this.submit({
      type: "credit_deposit",
      id: `operator_deposit:${body.id}`,
      ownerId: body.ownerId,
      mode: "real",
      assetId: body.assetId,
      amount: amount.value,
      reference: body.reference,
      operatorId: "operator",
    });
    if (!applied.result.ok) {
      throw new AppError("command_rejected", [{ path: "body", message: applied.result.code }]);
    }
    return {
      sequence: applied.sequence.toString(),
      duplicate: applied.duplicate,
      postingSeq: applied.result.value.postingSeq,
    };
  }

  private async submit<C extends CandorCommand>(command: C): Promise<Submitted<C>> {
    try {
      return (await this.engine.submit(command)) as Submitted<C>;
    } catch {
      // Not acknowledged (journal stopped): the client retries with the same id.
      throw new AppError("service_unavailable");
    }
  }
}
