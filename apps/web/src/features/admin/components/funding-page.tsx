import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  adminKeys,
  fetchSystemAccounts,
  fundAction,
  fundStockInventoryAction,
  type FundingTarget,
} from "../api/admin-api.ts";
import { isPositiveAmount } from "../lib/forms.ts";
import { PendingAdjustments } from "./adjustments.tsx";
import {
  ActionForm,
  AdminPage,
  Field,
  QueryView,
  ModeField,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";

const targets: readonly FundingTarget[] = [
  "house",
  "market_maker",
  "savings_yield",
  "loan_pool",
  "user",
];
/** Targets that have a demo side funded with demo money (the others are real money only). */
const targetsWithMode = new Set<FundingTarget>(["savings_yield", "loan_pool"]);

/**
 * Funding of system accounts: their balances (read from the ledger), and journaled credits of
 * money the operator put in. Nothing here sets a balance: each form adds a posting.
 */
export function FundingPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  const accounts = useQuery({ queryKey: adminKeys.systemAccounts(), queryFn: fetchSystemAccounts });
  const [target, setTarget] = useState<FundingTarget>("house");
  const [mode, setMode] = useState<"real" | "demo">("real");
  const [asset, setAsset] = useState("USDT");
  const [amount, setAmount] = useState("");
  const [reference, setReference] = useState("");
  const [ownerId, setOwnerId] = useState("");
  const [stockMode, setStockMode] = useState<"real" | "demo">("real");
  const [instrumentId, setInstrumentId] = useState("");
  const [quantity, setQuantity] = useState("");
  const [stockReference, setStockReference] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  const fundValid =
    isPositiveAmount(amount) &&
    /^[A-Za-z0-9_.-]{1,32}$/.test(asset.trim()) &&
    reference.trim().length > 0 &&
    (target !== "user" || /^[1-9]\d{0,18}$/.test(ownerId.trim()));
  return (
    <AdminPage title={t("funding.title")} testId="admin-funding">
      <h2>{t("funding.balances")}</h2>
      <QueryView
        query={accounts}
        isEmpty={(data) => data.accounts.length === 0}
        emptyText={t("funding.noAccounts")}
      >
        {(data) => (
          <table className="admin-table" data-testid="admin-system-accounts">
            <thead>
              <tr>
                <th scope="col">{t("funding.account")}</th>
                <th scope="col">{t("common.mode")}</th>
                <th scope="col">{t("common.asset")}</th>
                <th scope="col">{t("common.available")}</th>
                <th scope="col">{t("common.held")}</th>
              </tr>
            </thead>
            <tbody>
              {data.accounts.map((row) => (
                <tr key={`${row.label}:${row.mode}:${row.asset}`}>
                  <td className="admin-mono">{row.label}</td>
                  <td>{t(`common.modes.${row.mode}`)}</td>
                  <td>{row.asset}</td>
                  <td className="admin-number">{format.amount(row.available)}</td>
                  <td className="admin-number">{format.amount(row.held)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
      <PendingAdjustments />
      <div className="admin-columns">
        <section>
          <h2>{t("funding.fund")}</h2>
          <p className="admin-hint">{t("funding.intro")}</p>
          <ActionForm
            submitLabel={t("funding.submit")}
            testId="admin-fund"
            valid={fundValid}
            run={(reason) =>
              fundAction(
                {
                  target,
                  mode: targetsWithMode.has(target) ? mode : "real",
                  asset: asset.trim(),
                  amount: amount.trim(),
                  reference,
                  ...(target === "user" ? { ownerId: ownerId.trim() } : {}),
                },
                reason,
              )
            }
            onDone={() => {
              setAmount("");
              setReference("");
              refresh();
            }}
          >
            <SelectField
              label={t("funding.target")}
              value={target}
              onChange={setTarget}
              options={targets.map((value) => ({ value, text: t(`funding.targets.${value}`) }))}
              testId="admin-fund-target"
            />
            {targetsWithMode.has(target) ? <ModeField value={mode} onChange={setMode} /> : null}
            {target === "user" ? (
              <Field
                label={t("audit.user")}
                value={ownerId}
                onChange={setOwnerId}
                inputMode="numeric"
              />
            ) : null}
            <Field label={t("common.asset")} value={asset} onChange={setAsset} />
            <Field
              label={t("common.amount")}
              value={amount}
              onChange={setAmount}
              inputMode="decimal"
              testId="admin-fund-amount"
            />
            <Field
              label={t("funding.reference")}
              value={reference}
              onChange={setReference}
              testId="admin-fund-reference"
            />
          </ActionForm>
        </section>
        <section>
          <h2>{t("funding.stocks")}</h2>
          <ActionForm
            submitLabel={t("funding.submit")}
            testId="admin-fund-stocks"
            valid={
              /^[1-9]\d{0,11}$/.test(quantity.trim()) &&
              instrumentId.trim().length > 0 &&
              stockReference.trim().length > 0
            }
            run={(reason) =>
              fundStockInventoryAction(
                {
                  mode: stockMode,
                  instrumentId: instrumentId.trim(),
                  quantity: quantity.trim(),
                  reference: stockReference.trim(),
                },
                reason,
              )
            }
            onDone={() => {
              setQuantity("");
              setStockReference("");
              refresh();
            }}
          >
            <ModeField value={stockMode} onChange={setStockMode} />
            <Field
              label={t("funding.instrument")}
              value={instrumentId}
              onChange={setInstrumentId}
            />
            <Field
              label={t("funding.shares")}
              value={quantity}
              onChange={setQuantity}
              inputMode="numeric"
            />
            <Field
              label={t("funding.reference")}
              value={stockReference}
              onChange={setStockReference}
            />
          </ActionForm>
        </section>
      </div>
    </AdminPage>
  );
}
