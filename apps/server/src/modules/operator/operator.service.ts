import type { EndpointBody, EndpointData, operatorDepositEndpoint } from "@candor/contract";
import { getAssets, isOpen, parseAmount } from "@candor/kernel";
import { submit, type EngineSubmitQuery } from "../../engine/submit.ts";
import { AppError } from "../../http/app-error.ts";

/**
 * Who may receive a real deposit: the auth module's answer (`AuthService.holdsRealMoney`), so
 * this module never reads the users table itself.
 */
export interface RealMoneyUsers {
  /** True when the user exists and is not a demo-only user. */
  holdsRealMoney(userId: bigint): Promise<boolean>;
}

/**
 * What the operator does by hand, always as journaled kernel commands (never a direct write):
 * today, crediting a user's real deposit. No SQL, so the module has no repository.
 */
export class OperatorService {
  constructor(
    private readonly engine: EngineSubmitQuery,
    private readonly users: RealMoneyUsers,
  ) {}

  /**
   * Credits a real deposit once per `body.id`; a repeat answers the first result, and a repeat
   * with different fields is refused by the kernel (`command_id_reused`). Only an existing user
   * whose real accounts are open can be credited: ids are sequential, so crediting an id nobody
   * holds yet would hand the money to whoever registers next (issue 14, item 4).
   */
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
    // Accounts are opened by the auth module at registration and sign-in, never here.
    const opened = this.engine.query((state) => isOpen(state, body.ownerId, "real"));
    if (!opened || !(await this.users.holdsRealMoney(BigInt(body.ownerId)))) {
      throw new AppError("user_not_found");
    }
    const applied = await submit(this.engine, {
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
}
