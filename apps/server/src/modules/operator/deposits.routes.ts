import { operatorDepositEndpoint } from "@candor/contract";
import { getAssets, parseAmount } from "@candor/kernel";
import type { FastifyPluginAsync } from "fastify";
import type { CandorCommand, CandorEngine, Submitted } from "../../engine/kernel-port.ts";
import { AppError } from "../../http/app-error.ts";
import { defineRoute } from "../../http/define-route.ts";

/** POST /api/v1/operator/deposits: credits a real deposit through the journal (issue 8 uses it). */
export const operatorDepositRoutes: FastifyPluginAsync<{ engine: CandorEngine }> = async (
  app,
  { engine },
) => {
  defineRoute(app, operatorDepositEndpoint, { bodyBytes: 2_048 }, async ({ body }) => {
    const asset = engine.query((state) => getAssets(state).find((a) => a.assetId === body.assetId));
    if (!asset)
      throw new AppError("command_rejected", [
        { path: "body.assetId", message: "asset_not_found" },
      ]);
    const amount = parseAmount(body.amount, asset.scale);
    if (!amount.ok)
      throw new AppError("command_rejected", [{ path: "body.amount", message: amount.code }]);
    const submit = async <C extends CandorCommand>(command: C): Promise<Submitted<C>> => {
      try {
        return (await engine.submit(command)) as Submitted<C>;
      } catch {
        // Not acknowledged (journal stopped): the client retries with the same id.
        throw new AppError("service_unavailable");
      }
    };
    // Accounts open on first credit; a second open is refused harmlessly.
    const opened = await submit({
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
    const applied = await submit({
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
  });
};
