import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  adminKeys,
  configureAgentLevelAction,
  configureVipLevelAction,
  defineActivityAction,
  fetchAgentLevels,
  fetchOperatorActivities,
  fetchVipLevels,
  fundPromotionAction,
} from "../api/admin-api.ts";
import { isPositiveAmount, readInteger } from "../lib/forms.ts";
import { useOperatorSession } from "../lib/operator-session.ts";
import {
  ActionForm,
  AdminPage,
  CheckField,
  EditableTable,
  Field,
  QueryView,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";

type Mode = "real" | "demo";

/** The highest VIP level and the most a discount may be, in basis points (contract: vip.ts). */
const VIP_LEVEL_MAX = 10;
const DISCOUNT_BPS_MAX = 10_000;
/** Agent levels run LV1…LV10; rebate ratios are basis points of a fee; members at most a million
 * (contract: agents.ts). */
const AGENT_LEVEL_MAX = 10;
const REBATE_BPS_MAX = 10_000;
const AGENT_MEMBERS_MAX = 1_000_000;
const assetPattern = /^[A-Za-z0-9_.-]{1,32}$/;
const activityIdPattern = /^[A-Za-z0-9_.:-]{1,64}$/;

/** An amount that may be zero ("0": not a condition, or no limit). */
const isAmountOrZero = (text: string) => /^0+(\.0+)?$/.test(text.trim()) || isPositiveAmount(text);

interface VipLevelValues {
  mode: Mode;
  level: string;
  asset: string;
  minVolume: string;
  minBalance: string;
  feeDiscountBps: string;
  withdrawDailyLimit: string;
}

/** Sets one VIP level of one mode, or removes it; applies to fills after the change. */
function VipLevelForm({ initial, onDone }: { initial: VipLevelValues; onDone: () => void }) {
  const t = useAdminT();
  const [values, setValues] = useState(initial);
  const [remove, setRemove] = useState(false);
  const set = (name: keyof VipLevelValues) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
  const level = readInteger(values.level, 0, VIP_LEVEL_MAX);
  const discount = readInteger(values.feeDiscountBps, 0, DISCOUNT_BPS_MAX);
  const valid =
    level !== null &&
    discount !== null &&
    assetPattern.test(values.asset.trim()) &&
    isAmountOrZero(values.minVolume) &&
    isAmountOrZero(values.minBalance) &&
    isAmountOrZero(values.withdrawDailyLimit);
  return (
    <ActionForm
      submitLabel={remove ? t("programmes.vip.remove") : t("programmes.save")}
      testId="admin-vip-form"
      valid={valid}
      danger={remove}
      run={(reason) =>
        configureVipLevelAction(
          {
            mode: values.mode,
            level: level!,
            asset: values.asset.trim(),
            minVolume: values.minVolume.trim(),
            minBalance: values.minBalance.trim(),
            feeDiscountBps: discount!,
            withdrawDailyLimit: values.withdrawDailyLimit.trim(),
            remove,
          },
          reason,
        )
      }
      onDone={onDone}
    >
      <div className="admin-grid">
        <SelectField
          label={t("common.mode")}
          value={values.mode}
          onChange={(mode) => setValues((current) => ({ ...current, mode }))}
          options={[
            { value: "real", text: t("common.modes.real") },
            { value: "demo", text: t("common.modes.demo") },
          ]}
          testId="admin-vip-form-mode"
        />
        <Field
          label={t("programmes.vip.level")}
          value={values.level}
          onChange={set("level")}
          inputMode="numeric"
          testId="admin-vip-form-level"
        />
        <Field
          label={t("common.asset")}
          value={values.asset}
          onChange={set("asset")}
          testId="admin-vip-form-asset"
        />
        <Field
          label={t("programmes.vip.minVolume")}
          value={values.minVolume}
          onChange={set("minVolume")}
          inputMode="decimal"
          testId="admin-vip-form-minVolume"
        />
        <Field
          label={t("programmes.vip.minBalance")}
          value={values.minBalance}
          onChange={set("minBalance")}
          inputMode="decimal"
          testId="admin-vip-form-minBalance"
        />
        <Field
          label={t("programmes.vip.feeDiscountBps")}
          value={values.feeDiscountBps}
          onChange={set("feeDiscountBps")}
          inputMode="numeric"
          testId="admin-vip-form-feeDiscountBps"
        />
        <Field
          label={t("programmes.vip.withdrawDailyLimit")}
          value={values.withdrawDailyLimit}
          onChange={set("withdrawDailyLimit")}
          inputMode="decimal"
          testId="admin-vip-form-withdrawDailyLimit"
        />
      </div>
      <p className="admin-hint">{t("programmes.vip.rule", { max: DISCOUNT_BPS_MAX })}</p>
      <CheckField
        label={t("programmes.vip.removeLevel")}
        checked={remove}
        onChange={setRemove}
        testId="admin-vip-form-remove"
      />
    </ActionForm>
  );
}

/** The current VIP levels of each mode, editable by admin (the server decides anyway). */
function VipSection({ mayEdit, onDone }: { mayEdit: boolean; onDone: () => void }) {
  const t = useAdminT();
  const format = useAdminFormat();
  const levels = useQuery({ queryKey: adminKeys.vipLevels(), queryFn: fetchVipLevels });
  const [editing, setEditing] = useState<{ key: string; values: VipLevelValues } | null>(null);
  return (
    <section className="admin-card" data-testid="admin-vip-levels">
      <h2>{t("programmes.vip.title")}</h2>
      <p className="admin-hint">{t("programmes.vip.intro")}</p>
      <QueryView query={levels}>
        {(data) => (
          <>
            {data.modes.map((mode) => (
              <div key={mode.mode} data-testid={`admin-vip-levels-${mode.mode}`}>
                <h3>
                  {mode.asset === null
                    ? t(`common.modes.${mode.mode}`)
                    : t("programmes.vip.modeAsset", {
                        mode: t(`common.modes.${mode.mode}`),
                        asset: mode.asset,
                      })}
                </h3>
                {mode.levels.length === 0 ? (
                  <p className="admin-state">{t("programmes.vip.none")}</p>
                ) : (
                  <EditableTable
                    headers={[
                      t("programmes.vip.level"),
                      t("programmes.vip.minVolume"),
                      t("programmes.vip.minBalance"),
                      t("programmes.vip.feeDiscountBps"),
                      t("programmes.vip.withdrawDailyLimit"),
                    ]}
                    rows={mode.levels.map((l) => ({
                      key: `${mode.mode} ${l.level}`,
                      testId: `admin-vip-level-${mode.mode}-${l.level}`,
                      cells: [
                        l.level,
                        format.amount(l.minVolume),
                        format.amount(l.minBalance),
                        l.feeDiscountBps,
                        l.withdrawDailyLimit === null
                          ? t("programmes.vip.noLimit")
                          : format.amount(l.withdrawDailyLimit),
                      ],
                      edit: () =>
                        setEditing({
                          key: `${mode.mode}:${l.level}:${Date.now()}`,
                          values: {
                            mode: mode.mode,
                            level: String(l.level),
                            asset: mode.asset ?? "",
                            minVolume: l.minVolume,
                            minBalance: l.minBalance,
                            feeDiscountBps: String(l.feeDiscountBps),
                            withdrawDailyLimit: l.withdrawDailyLimit ?? "0",
                          },
                        }),
                    }))}
                    mayEdit={mayEdit}
                  />
                )}
              </div>
            ))}
            {mayEdit ? (
              <button
                type="button"
                className="admin-button admin-secondary"
                data-testid="admin-vip-new"
                onClick={() =>
                  setEditing({
                    key: `new-${Date.now()}`,
                    values: {
                      mode: "real",
                      level: "",
                      asset: data.modes[0]?.asset ?? "USDT",
                      minVolume: "0",
                      minBalance: "0",
                      feeDiscountBps: "0",
                      withdrawDailyLimit: "0",
                    },
                  })
                }
              >
                {t("programmes.vip.new")}
              </button>
            ) : null}
            {editing ? (
              <VipLevelForm
                key={editing.key}
                initial={editing.values}
                onDone={() => {
                  setEditing(null);
                  onDone();
                }}
              />
            ) : null}
          </>
        )}
      </QueryView>
    </section>
  );
}

interface AgentLevelValues {
  mode: Mode;
  level: string;
  asset: string;
  upgradeMembers: string;
  upgradeVolume: string;
  keepMembers: string;
  keepVolume: string;
  spotBps: string;
  perpBps: string;
  stocksBps: string;
}

/** The products an agent rebate is paid on, in the order the table shows them. */
const rebateProducts = ["spot", "perp", "stocks"] as const;

/**
 * Sets one agent level of one mode, or removes it. The kernel refuses a level without an upgrade
 * condition, and ratios that with the invitation rebate would exceed the fee.
 */
function AgentLevelForm({ initial, onDone }: { initial: AgentLevelValues; onDone: () => void }) {
  const t = useAdminT();
  const [values, setValues] = useState(initial);
  const [remove, setRemove] = useState(false);
  const set = (name: keyof AgentLevelValues) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value }));
  const level = readInteger(values.level, 1, AGENT_LEVEL_MAX);
  const upgradeMembers = readInteger(values.upgradeMembers, 0, AGENT_MEMBERS_MAX);
  const keepMembers = readInteger(values.keepMembers, 0, AGENT_MEMBERS_MAX);
  const spot = readInteger(values.spotBps, 0, REBATE_BPS_MAX);
  const perp = readInteger(values.perpBps, 0, REBATE_BPS_MAX);
  const stocks = readInteger(values.stocksBps, 0, REBATE_BPS_MAX);
  const valid =
    level !== null &&
    upgradeMembers !== null &&
    keepMembers !== null &&
    spot !== null &&
    perp !== null &&
    stocks !== null &&
    assetPattern.test(values.asset.trim()) &&
    isAmountOrZero(values.upgradeVolume) &&
    isAmountOrZero(values.keepVolume);
  const field = (
    name: keyof AgentLevelValues,
    label: string,
    inputMode: "numeric" | "decimal" | undefined,
  ) => (
    <Field
      label={label}
      value={values[name]}
      onChange={set(name)}
      inputMode={inputMode}
      testId={`admin-agent-form-${name}`}
    />
  );
  return (
    <ActionForm
      submitLabel={remove ? t("programmes.agents.remove") : t("programmes.save")}
      testId="admin-agent-form"
      valid={valid}
      danger={remove}
      run={(reason) =>
        configureAgentLevelAction(
          {
            mode: values.mode,
            level: level!,
            asset: values.asset.trim(),
            upgradeMembers: upgradeMembers!,
            upgradeVolume: values.upgradeVolume.trim(),
            keepMembers: keepMembers!,
            keepVolume: values.keepVolume.trim(),
            rebateBps: { spot: spot!, perp: perp!, stocks: stocks! },
            remove,
          },
          reason,
        )
      }
      onDone={onDone}
    >
      <div className="admin-grid">
        <SelectField
          label={t("common.mode")}
          value={values.mode}
          onChange={(mode) => setValues((current) => ({ ...current, mode }))}
          options={[
            { value: "real", text: t("common.modes.real") },
            { value: "demo", text: t("common.modes.demo") },
          ]}
          testId="admin-agent-form-mode"
        />
        {field("level", t("programmes.agents.level"), "numeric")}
        {field("asset", t("common.asset"), undefined)}
        {field("upgradeMembers", t("programmes.agents.upgradeMembers"), "numeric")}
        {field("upgradeVolume", t("programmes.agents.upgradeVolume"), "decimal")}
        {field("keepMembers", t("programmes.agents.keepMembers"), "numeric")}
        {field("keepVolume", t("programmes.agents.keepVolume"), "decimal")}
        {field("spotBps", t("programmes.agents.rebate.spot"), "numeric")}
        {field("perpBps", t("programmes.agents.rebate.perp"), "numeric")}
        {field("stocksBps", t("programmes.agents.rebate.stocks"), "numeric")}
      </div>
      <p className="admin-hint">{t("programmes.agents.rule", { max: REBATE_BPS_MAX })}</p>
      <CheckField
        label={t("programmes.agents.removeLevel")}
        checked={remove}
        onChange={setRemove}
        testId="admin-agent-form-remove"
      />
    </ActionForm>
  );
}

/** The current agent levels of each mode, editable by admin (the server decides anyway). */
function AgentSection({ mayEdit, onDone }: { mayEdit: boolean; onDone: () => void }) {
  const t = useAdminT();
  const format = useAdminFormat();
  const levels = useQuery({ queryKey: adminKeys.agentLevels(), queryFn: fetchAgentLevels });
  const [editing, setEditing] = useState<{ key: string; values: AgentLevelValues } | null>(null);
  return (
    <section className="admin-card" data-testid="admin-agent-levels">
      <h2>{t("programmes.agents.title")}</h2>
      <p className="admin-hint">{t("programmes.agents.intro")}</p>
      <QueryView query={levels}>
        {(data) => (
          <>
            {data.modes.map((mode) => (
              <div key={mode.mode} data-testid={`admin-agent-levels-${mode.mode}`}>
                <h3>
                  {mode.asset === null
                    ? t(`common.modes.${mode.mode}`)
                    : t("programmes.agents.modeAsset", {
                        mode: t(`common.modes.${mode.mode}`),
                        asset: mode.asset,
                      })}
                </h3>
                {mode.levels.length === 0 ? (
                  <p className="admin-state">{t("programmes.agents.none")}</p>
                ) : (
                  <EditableTable
                    headers={[
                      t("programmes.agents.level"),
                      t("programmes.agents.upgradeMembers"),
                      t("programmes.agents.upgradeVolume"),
                      t("programmes.agents.keepMembers"),
                      t("programmes.agents.keepVolume"),
                      ...rebateProducts.map((p) => t(`programmes.agents.rebate.${p}`)),
                    ]}
                    rows={mode.levels.map((l) => ({
                      key: `${mode.mode} LV${l.level}`,
                      testId: `admin-agent-level-${mode.mode}-${l.level}`,
                      cells: [
                        t("programmes.agents.levelName", { level: l.level }),
                        l.upgradeMembers,
                        format.amount(l.upgradeVolume),
                        l.keepMembers,
                        format.amount(l.keepVolume),
                        ...rebateProducts.map((p) => l.rebateBps[p]),
                      ],
                      edit: () =>
                        setEditing({
                          key: `${mode.mode}:${l.level}:${Date.now()}`,
                          values: {
                            mode: mode.mode,
                            level: String(l.level),
                            asset: mode.asset ?? "",
                            upgradeMembers: String(l.upgradeMembers),
                            upgradeVolume: l.upgradeVolume,
                            keepMembers: String(l.keepMembers),
                            keepVolume: l.keepVolume,
                            spotBps: String(l.rebateBps.spot),
                            perpBps: String(l.rebateBps.perp),
                            stocksBps: String(l.rebateBps.stocks),
                          },
                        }),
                    }))}
                    mayEdit={mayEdit}
                  />
                )}
              </div>
            ))}
            {mayEdit ? (
              <button
                type="button"
                className="admin-button admin-secondary"
                data-testid="admin-agent-new"
                onClick={() =>
                  setEditing({
                    key: `new-${Date.now()}`,
                    values: {
                      mode: "real",
                      level: "",
                      asset: data.modes[0]?.asset ?? "USDT",
                      upgradeMembers: "0",
                      upgradeVolume: "0",
                      keepMembers: "0",
                      keepVolume: "0",
                      spotBps: "0",
                      perpBps: "0",
                      stocksBps: "0",
                    },
                  })
                }
              >
                {t("programmes.agents.new")}
              </button>
            ) : null}
            {editing ? (
              <AgentLevelForm
                key={editing.key}
                initial={editing.values}
                onDone={() => {
                  setEditing(null);
                  onDone();
                }}
              />
            ) : null}
          </>
        )}
      </QueryView>
    </section>
  );
}

/** A time typed in a `datetime-local` field (the operator's local time), as ISO 8601, or null. */
function isoOf(local: string): string | null {
  const ms = Date.parse(local);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

/** Defines a new activity: terms, places and booking window (an id is defined once). */
function ActivityForm({ onDone }: { onDone: () => void }) {
  const t = useAdminT();
  const [activityId, setActivityId] = useState("");
  const [mode, setMode] = useState<Mode>("real");
  const [asset, setAsset] = useState("USDT");
  const [minDeposit, setMinDeposit] = useState("");
  const [bonus, setBonus] = useState("");
  const [capacity, setCapacity] = useState("");
  const [startsAt, setStartsAt] = useState("");
  const [endsAt, setEndsAt] = useState("");
  const places = readInteger(capacity, 1, 1_000_000);
  const from = isoOf(startsAt);
  const to = isoOf(endsAt);
  const valid =
    activityIdPattern.test(activityId.trim()) &&
    assetPattern.test(asset.trim()) &&
    isPositiveAmount(minDeposit) &&
    isPositiveAmount(bonus) &&
    places !== null &&
    from !== null &&
    to !== null &&
    Date.parse(from) < Date.parse(to);
  return (
    <ActionForm
      submitLabel={t("programmes.activities.define")}
      testId="admin-activity-form"
      valid={valid}
      run={(reason) =>
        defineActivityAction(
          {
            activityId: activityId.trim(),
            mode,
            asset: asset.trim(),
            minDeposit: minDeposit.trim(),
            bonus: bonus.trim(),
            capacity: places!,
            startsAt: from!,
            endsAt: to!,
          },
          reason,
        )
      }
      onDone={onDone}
    >
      <div className="admin-grid">
        <Field
          label={t("programmes.activities.id")}
          value={activityId}
          onChange={setActivityId}
          testId="admin-activity-form-id"
          placeholder="welcome-2027"
        />
        <SelectField
          label={t("common.mode")}
          value={mode}
          onChange={setMode}
          options={[
            { value: "real", text: t("common.modes.real") },
            { value: "demo", text: t("common.modes.demo") },
          ]}
          testId="admin-activity-form-mode"
        />
        <Field
          label={t("common.asset")}
          value={asset}
          onChange={setAsset}
          testId="admin-activity-form-asset"
        />
        <Field
          label={t("programmes.activities.minDeposit")}
          value={minDeposit}
          onChange={setMinDeposit}
          inputMode="decimal"
          testId="admin-activity-form-minDeposit"
        />
        <Field
          label={t("programmes.activities.bonus")}
          value={bonus}
          onChange={setBonus}
          inputMode="decimal"
          testId="admin-activity-form-bonus"
        />
        <Field
          label={t("programmes.activities.capacity")}
          value={capacity}
          onChange={setCapacity}
          inputMode="numeric"
          testId="admin-activity-form-capacity"
        />
        <Field
          label={t("programmes.activities.startsAt")}
          value={startsAt}
          onChange={setStartsAt}
          type="datetime-local"
          testId="admin-activity-form-startsAt"
        />
        <Field
          label={t("programmes.activities.endsAt")}
          value={endsAt}
          onChange={setEndsAt}
          type="datetime-local"
          testId="admin-activity-form-endsAt"
        />
      </div>
      <p className="admin-hint">{t("programmes.activities.defineRule")}</p>
    </ActionForm>
  );
}

/** Funds a mode's promotion account (real money with a reference, or demo money). */
function FundForm({ onDone }: { onDone: () => void }) {
  const t = useAdminT();
  const format = useAdminFormat();
  const [mode, setMode] = useState<Mode>("real");
  const [asset, setAsset] = useState("USDT");
  const [amount, setAmount] = useState("");
  const [reference, setReference] = useState("");
  const [available, setAvailable] = useState<string | null>(null);
  const valid =
    assetPattern.test(asset.trim()) &&
    isPositiveAmount(amount) &&
    (mode === "demo" || /^[\x21-\x7e]{1,128}$/.test(reference.trim()));
  return (
    <ActionForm
      submitLabel={t("programmes.activities.fund")}
      testId="admin-promotion-fund"
      valid={valid}
      run={(reason) => fundPromotionAction({ mode, asset, amount, reference }, reason)}
      onDone={(result) => {
        const answer = result as { promotionAvailable: string; asset: string };
        setAvailable(`${format.amount(answer.promotionAvailable)} ${answer.asset}`);
        setAmount("");
        setReference("");
        onDone();
      }}
    >
      <p className="admin-hint">{t("programmes.activities.fundIntro")}</p>
      <div className="admin-grid">
        <SelectField
          label={t("common.mode")}
          value={mode}
          onChange={setMode}
          options={[
            { value: "real", text: t("common.modes.real") },
            { value: "demo", text: t("common.modes.demo") },
          ]}
          testId="admin-promotion-fund-mode"
        />
        <Field
          label={t("common.asset")}
          value={asset}
          onChange={setAsset}
          testId="admin-promotion-fund-asset"
        />
        <Field
          label={t("common.amount")}
          value={amount}
          onChange={setAmount}
          inputMode="decimal"
          testId="admin-promotion-fund-amount"
        />
        <Field
          label={t("programmes.activities.reference")}
          value={reference}
          onChange={setReference}
          testId="admin-promotion-fund-reference"
        />
      </div>
      {available ? (
        <p className="admin-hint" data-testid="admin-promotion-fund-available">
          {t("programmes.activities.availableNow", { amount: available })}
        </p>
      ) : null}
    </ActionForm>
  );
}

/** The activities of both modes, the promotion balances, and the define and fund forms. */
function ActivitiesSection({
  mayDefine,
  mayFund,
  onDone,
}: {
  mayDefine: boolean;
  mayFund: boolean;
  onDone: () => void;
}) {
  const t = useAdminT();
  const format = useAdminFormat();
  const activities = useQuery({
    queryKey: adminKeys.activities(),
    queryFn: fetchOperatorActivities,
  });
  const [defining, setDefining] = useState<string | null>(null);
  return (
    <section className="admin-card" data-testid="admin-activities">
      <h2>{t("programmes.activities.title")}</h2>
      <p className="admin-hint">{t("programmes.activities.intro")}</p>
      <QueryView query={activities}>
        {(data) => (
          <>
            {data.activities.length === 0 ? (
              <p className="admin-state">{t("programmes.activities.none")}</p>
            ) : (
              <table className="admin-table" data-testid="admin-activities-table">
                <thead>
                  <tr>
                    <th scope="col">{t("programmes.activities.id")}</th>
                    <th scope="col">{t("common.mode")}</th>
                    <th scope="col">{t("programmes.activities.terms")}</th>
                    <th scope="col">{t("programmes.activities.places")}</th>
                    <th scope="col">{t("programmes.activities.reservations")}</th>
                    <th scope="col">{t("programmes.activities.window")}</th>
                    <th scope="col">{t("common.state")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.activities.map((a) => (
                    <tr key={a.activityId} data-testid={`admin-activity-${a.activityId}`}>
                      <td className="admin-mono">{a.activityId}</td>
                      <td>{t(`common.modes.${a.mode}`)}</td>
                      <td>
                        {t("programmes.activities.termsText", {
                          minDeposit: `${format.amount(a.minDeposit)} ${a.asset}`,
                          bonus: `${format.amount(a.bonus)} ${a.asset}`,
                        })}
                      </td>
                      <td>
                        {t("programmes.activities.placesText", {
                          remaining: a.remaining,
                          capacity: a.capacity,
                        })}
                      </td>
                      <td>
                        {t("programmes.activities.reservationsText", {
                          reserved: a.reservedCount,
                          paid: a.paidCount,
                        })}
                      </td>
                      <td>
                        {format.time(a.startsAt)} – {format.time(a.endsAt)}
                      </td>
                      <td>{t(`programmes.activities.status.${a.status}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <h3>{t("programmes.activities.promotion")}</h3>
            {data.promotion.length === 0 ? (
              <p className="admin-state">{t("programmes.activities.noPromotion")}</p>
            ) : (
              <table className="admin-table" data-testid="admin-promotion-balances">
                <thead>
                  <tr>
                    <th scope="col">{t("common.mode")}</th>
                    <th scope="col">{t("common.asset")}</th>
                    <th scope="col">{t("common.available")}</th>
                    <th scope="col">{t("programmes.activities.reserved")}</th>
                  </tr>
                </thead>
                <tbody>
                  {data.promotion.map((p) => (
                    <tr key={`${p.mode}:${p.asset}`} data-testid={`admin-promotion-${p.mode}`}>
                      <td>{t(`common.modes.${p.mode}`)}</td>
                      <td>{p.asset}</td>
                      <td>{format.amount(p.available)}</td>
                      <td>{format.amount(p.reserved)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </QueryView>
      {mayDefine ? (
        <button
          type="button"
          className="admin-button admin-secondary"
          data-testid="admin-activity-new"
          onClick={() => setDefining(`new-${Date.now()}`)}
        >
          {t("programmes.activities.new")}
        </button>
      ) : null}
      {defining ? (
        <ActivityForm
          key={defining}
          onDone={() => {
            setDefining(null);
            onDone();
          }}
        />
      ) : null}
      {mayFund ? <FundForm onDone={onDone} /> : null}
    </section>
  );
}

/**
 * Programmes (issue 23): VIP levels and agent levels of each mode, deposit-bonus activities with their places
 * and the promotion account that backs their bonuses. Every role reads; admin changes levels and
 * defines activities, finance (and admin) fund the promotion account (operator-roles.ts).
 * Nothing here pays a bonus or sets a balance: funding is a journaled credit of money put in.
 */
export function ProgrammesPage() {
  const t = useAdminT();
  const role = useOperatorSession()?.operator.role;
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage title={t("programmes.title")} testId="admin-programmes">
      <p className="admin-hint">{t("programmes.intro")}</p>
      <VipSection mayEdit={role === "admin"} onDone={refresh} />
      <AgentSection mayEdit={role === "admin"} onDone={refresh} />
      <ActivitiesSection
        mayDefine={role === "admin"}
        mayFund={role === "admin" || role === "finance"}
        onDone={refresh}
      />
    </AdminPage>
  );
}
