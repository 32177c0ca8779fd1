import type { LimitAmountTable, LimitsView } from "@candor/contract";
import { useState } from "react";
import { setLimitAction, type LimitChange } from "../api/admin-api.ts";
import { isAmountOrZero, isPositiveAmount } from "../lib/forms.ts";
import {
  ActionForm,
  EditableTable,
  Field,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";

const amountTables = [
  "withdrawalTwoApprovalsAbove",
  "adjustmentTwoApprovalsAbove",
  "transferDailyLimits",
  "withdrawAdvancedAbove",
] as const satisfies readonly LimitAmountTable[];
const tiers = ["none", "basic", "advanced"] as const;

/** What the open form changes: one row, an amount (`asset` empty: a new asset), or the tier. */
type Editing =
  | { kind: "withdrawal"; asset: string; network: string; minimum: string; fee: string }
  | { kind: "amount"; table: LimitAmountTable; asset: string; amount: string }
  | { kind: "identity"; tier: LimitsView["withdrawRequiresIdentity"] };

/**
 * The limits in force (withdrawal minimums and fees, the two-approval amounts, daily transfer
 * limits, the identity a withdrawal needs): every role reads, admin changes one at a time with
 * a reason. Later requests only: a withdrawal already requested keeps its fee.
 */
export function LimitsSection({
  limits,
  mayEdit,
  onChanged,
}: {
  limits: LimitsView;
  mayEdit: boolean;
  onChanged: () => void;
}) {
  const t = useAdminT();
  const format = useAdminFormat();
  const [editing, setEditing] = useState<{ key: string; value: Editing } | null>(null);
  const open = (value: Editing) => setEditing({ key: `${Date.now()}`, value });
  return (
    <section className="admin-card" data-testid="admin-limits">
      <h2>{t("markets.limits")}</h2>
      <p className="admin-hint">{t("markets.limitsIntro")}</p>
      <EditableTable
        headers={[t("markets.asset"), t("markets.network"), t("markets.minimum"), t("markets.fee")]}
        rows={limits.withdrawals.map((w) => ({
          key: `${w.asset} ${w.network}`,
          testId: `admin-limits-withdrawal-${w.asset}-${w.network}`,
          cells: [w.asset, w.network, format.amount(w.minimum), format.amount(w.fee)],
          edit: () => open({ kind: "withdrawal", ...w }),
        }))}
        mayEdit={mayEdit}
      />
      <EditableTable
        headers={[t("markets.limit"), t("markets.asset"), t("common.amount")]}
        rows={amountTables.flatMap((table) =>
          limits[table].map((row) => ({
            key: `${t(`markets.${table}`)} ${row.asset}`,
            testId: `admin-limits-${table}-${row.asset}`,
            cells: [t(`markets.${table}`), row.asset, format.amount(row.amount)],
            edit: () => open({ kind: "amount", table, ...row }),
          })),
        )}
        mayEdit={mayEdit}
      />
      <dl className="admin-dl">
        <dt>{t("markets.withdrawRequiresIdentity")}</dt>
        <dd data-testid="admin-limits-identity">
          {t(`markets.identityTiers.${limits.withdrawRequiresIdentity}`)}
        </dd>
      </dl>
      {mayEdit ? (
        <div className="admin-actions">
          <button
            type="button"
            className="admin-button admin-secondary"
            onClick={() =>
              open({ kind: "amount", table: "transferDailyLimits", asset: "", amount: "" })
            }
            data-testid="admin-limits-add-amount"
          >
            {t("markets.addAmount")}
          </button>
          <button
            type="button"
            className="admin-button admin-secondary"
            onClick={() => open({ kind: "identity", tier: limits.withdrawRequiresIdentity })}
            data-testid="admin-limits-edit-identity"
          >
            {t("markets.changeIdentity")}
          </button>
        </div>
      ) : null}
      {editing ? (
        <LimitForm
          key={editing.key}
          initial={editing.value}
          onDone={() => {
            setEditing(null);
            onChanged();
          }}
        />
      ) : null}
    </section>
  );
}

function LimitForm({ initial, onDone }: { initial: Editing; onDone: () => void }) {
  const t = useAdminT();
  const [value, setValue] = useState(initial);
  const isNew = initial.kind === "amount" && initial.asset === "";
  let change: LimitChange | null = null;
  if (value.kind === "withdrawal") {
    const network = value.network as Extract<LimitChange, { kind: "withdrawal" }>["network"];
    if (isPositiveAmount(value.minimum) && isAmountOrZero(value.fee)) {
      const { asset, minimum, fee } = value;
      change = { kind: "withdrawal", asset, network, minimum: minimum.trim(), fee: fee.trim() };
    }
  } else if (value.kind === "amount") {
    const asset = value.asset.trim().toUpperCase();
    const amountOk =
      value.table === "transferDailyLimits"
        ? isAmountOrZero(value.amount)
        : isPositiveAmount(value.amount);
    if (asset && amountOk) {
      change = { kind: "amount", table: value.table, asset, amount: value.amount.trim() };
    }
  } else {
    change = { kind: "identity", withdrawRequiresIdentity: value.tier };
  }
  return (
    <ActionForm
      submitLabel={t("markets.save")}
      testId="admin-limit-form"
      valid={change !== null}
      run={(reason) => setLimitAction(change!, reason)}
      onDone={onDone}
    >
      {value.kind === "withdrawal" ? (
        <>
          <p className="admin-hint">
            {t("markets.editing", { market: `${value.asset} · ${value.network}` })}
          </p>
          <div className="admin-grid">
            <Field
              label={t("markets.minimum")}
              value={value.minimum}
              onChange={(minimum) => setValue({ ...value, minimum })}
              inputMode="decimal"
              testId="admin-limit-minimum"
            />
            <Field
              label={t("markets.fee")}
              value={value.fee}
              onChange={(fee) => setValue({ ...value, fee })}
              inputMode="decimal"
              testId="admin-limit-fee"
            />
          </div>
        </>
      ) : value.kind === "amount" ? (
        <div className="admin-grid">
          {isNew ? (
            <>
              <SelectField
                label={t("markets.limit")}
                value={value.table}
                onChange={(table) => setValue({ ...value, table })}
                options={amountTables.map((table) => ({
                  value: table,
                  text: t(`markets.${table}`),
                }))}
                testId="admin-limit-table"
              />
              <Field
                label={t("markets.asset")}
                value={value.asset}
                onChange={(asset) => setValue({ ...value, asset })}
                testId="admin-limit-asset"
                placeholder="USDT"
              />
            </>
          ) : (
            <p className="admin-hint">
              {t("markets.editing", { market: `${t(`markets.${value.table}`)} · ${value.asset}` })}
            </p>
          )}
          <Field
            label={t("common.amount")}
            value={value.amount}
            onChange={(amount) => setValue({ ...value, amount })}
            inputMode="decimal"
            testId="admin-limit-amount"
          />
        </div>
      ) : (
        <SelectField
          label={t("markets.withdrawRequiresIdentity")}
          value={value.tier}
          onChange={(tier) => setValue({ ...value, tier })}
          options={tiers.map((tier) => ({ value: tier, text: t(`markets.identityTiers.${tier}`) }))}
          testId="admin-limit-identity"
        />
      )}
      <p className="admin-hint">{t("markets.limitRule")}</p>
    </ActionForm>
  );
}
