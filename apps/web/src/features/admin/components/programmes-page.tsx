import { type UseQueryResult, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ComponentType, type ReactNode, useState } from "react";
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
  ModeField,
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

/** The form values of one level: every field is text as typed, the mode a choice. */
type LevelValues<K extends string> = { mode: Mode } & Record<K, string>;

/** The fields of one level form in the order shown: value name, label, keyboard. */
type LevelField<K extends string> = readonly [
  name: K,
  label: string,
  inputMode?: "numeric" | "decimal",
];

/**
 * Sets one level of one mode, or removes it (applies to what happens after the change). The
 * fields are data; `valid` and `command` read them (the server and kernel decide anyway).
 */
function LevelForm<K extends string>({
  kind,
  keys,
  fields,
  initial,
  valid,
  save,
  rule,
  onDone,
}: {
  kind: "vip" | "agent";
  keys: "programmes.vip" | "programmes.agents";
  fields: readonly LevelField<K>[];
  initial: LevelValues<K>;
  valid: (values: LevelValues<K>) => boolean;
  save: (values: LevelValues<K>, remove: boolean, reason: string) => Promise<unknown>;
  rule: string;
  onDone: () => void;
}) {
  const t = useAdminT();
  const [values, setValues] = useState(initial);
  const [remove, setRemove] = useState(false);
  return (
    <ActionForm
      submitLabel={remove ? t(`${keys}.remove`) : t("programmes.save")}
      testId={`admin-${kind}-form`}
      valid={valid(values)}
      danger={remove}
      run={(reason) => save(values, remove, reason)}
      onDone={onDone}
    >
      <div className="admin-grid">
        <ModeField
          value={values.mode}
          onChange={(mode) => setValues((current) => ({ ...current, mode }))}
          testId={`admin-${kind}-form-mode`}
        />
        {fields.map(([name, label, inputMode]) => (
          <Field
            key={name}
            label={label}
            value={values[name]}
            onChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
            inputMode={inputMode}
            testId={`admin-${kind}-form-${name}`}
          />
        ))}
      </div>
      <p className="admin-hint">{rule}</p>
      <CheckField
        label={t(`${keys}.removeLevel`)}
        checked={remove}
        onChange={setRemove}
        testId={`admin-${kind}-form-remove`}
      />
    </ActionForm>
  );
}

/** What the operator endpoints answer for VIP and agent levels alike. */
interface LevelsData<L> {
  modes: readonly { mode: Mode; asset: string | null; levels: readonly L[] }[];
}

/**
 * The current levels of each mode (VIP or agent), with an edit button per row and a "new
 * level" button for roles that may edit (the server decides anyway), and the form.
 */
function LevelsSection<L extends { level: number }, K extends string>({
  kind,
  keys,
  query,
  headers,
  levelName,
  cells,
  valuesOf,
  Form,
  mayEdit,
  onDone,
}: {
  kind: "vip" | "agent";
  keys: "programmes.vip" | "programmes.agents";
  query: UseQueryResult<LevelsData<L>>;
  headers: readonly string[];
  levelName: (level: L) => string;
  cells: (level: L) => readonly ReactNode[];
  /** The form's values for a level (null: a new one, of the first mode's asset). */
  valuesOf: (mode: Mode, asset: string, level: L | null) => LevelValues<K>;
  Form: ComponentType<{ initial: LevelValues<K>; onDone: () => void }>;
  mayEdit: boolean;
  onDone: () => void;
}) {
  const t = useAdminT();
  const [editing, setEditing] = useState<{ key: string; values: LevelValues<K> } | null>(null);
  return (
    <section className="admin-card" data-testid={`admin-${kind}-levels`}>
      <h2>{t(`${keys}.title`)}</h2>
      <p className="admin-hint">{t(`${keys}.intro`)}</p>
      <QueryView query={query}>
        {(data) => (
          <>
            {data.modes.map((mode) => (
              <div key={mode.mode} data-testid={`admin-${kind}-levels-${mode.mode}`}>
                <h3>
                  {mode.asset === null
                    ? t(`common.modes.${mode.mode}`)
                    : t(`${keys}.modeAsset`, {
                        mode: t(`common.modes.${mode.mode}`),
                        asset: mode.asset,
                      })}
                </h3>
                {mode.levels.length === 0 ? (
                  <p className="admin-state">{t(`${keys}.none`)}</p>
                ) : (
                  <EditableTable
                    headers={headers}
                    rows={mode.levels.map((l) => ({
                      key: `${mode.mode} ${levelName(l)}`,
                      testId: `admin-${kind}-level-${mode.mode}-${l.level}`,
                      cells: [levelName(l), ...cells(l)],
                      edit: () =>
                        setEditing({
                          key: `${mode.mode}:${l.level}:${Date.now()}`,
                          values: valuesOf(mode.mode, mode.asset ?? "", l),
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
                data-testid={`admin-${kind}-new`}
                onClick={() =>
                  setEditing({
                    key: `new-${Date.now()}`,
                    values: valuesOf("real", data.modes[0]?.asset ?? "USDT", null),
                  })
                }
              >
                {t(`${keys}.new`)}
              </button>
            ) : null}
            {editing ? (
              <Form
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

type VipField =
  "level" | "asset" | "minVolume" | "minBalance" | "feeDiscountBps" | "withdrawDailyLimit";

/** One VIP level of one mode; applies to fills after the change. */
function VipLevelForm(props: { initial: LevelValues<VipField>; onDone: () => void }) {
  const t = useAdminT();
  return (
    <LevelForm
      {...props}
      kind="vip"
      keys="programmes.vip"
      fields={[
        ["level", t("programmes.vip.level"), "numeric"],
        ["asset", t("common.asset")],
        ["minVolume", t("programmes.vip.minVolume"), "decimal"],
        ["minBalance", t("programmes.vip.minBalance"), "decimal"],
        ["feeDiscountBps", t("programmes.vip.feeDiscountBps"), "numeric"],
        ["withdrawDailyLimit", t("programmes.vip.withdrawDailyLimit"), "decimal"],
      ]}
      valid={(v) =>
        readInteger(v.level, 0, VIP_LEVEL_MAX) !== null &&
        readInteger(v.feeDiscountBps, 0, DISCOUNT_BPS_MAX) !== null &&
        assetPattern.test(v.asset.trim()) &&
        isAmountOrZero(v.minVolume) &&
        isAmountOrZero(v.minBalance) &&
        isAmountOrZero(v.withdrawDailyLimit)
      }
      save={(v, remove, reason) =>
        configureVipLevelAction(
          {
            mode: v.mode,
            level: readInteger(v.level, 0, VIP_LEVEL_MAX)!,
            asset: v.asset.trim(),
            minVolume: v.minVolume.trim(),
            minBalance: v.minBalance.trim(),
            feeDiscountBps: readInteger(v.feeDiscountBps, 0, DISCOUNT_BPS_MAX)!,
            withdrawDailyLimit: v.withdrawDailyLimit.trim(),
            remove,
          },
          reason,
        )
      }
      rule={t("programmes.vip.rule", { max: DISCOUNT_BPS_MAX })}
    />
  );
}

/** The current VIP levels of each mode. */
function VipSection({ mayEdit, onDone }: { mayEdit: boolean; onDone: () => void }) {
  const t = useAdminT();
  const format = useAdminFormat();
  const query = useQuery({ queryKey: adminKeys.vipLevels(), queryFn: fetchVipLevels });
  return (
    <LevelsSection
      kind="vip"
      keys="programmes.vip"
      query={query}
      headers={[
        t("programmes.vip.level"),
        t("programmes.vip.minVolume"),
        t("programmes.vip.minBalance"),
        t("programmes.vip.feeDiscountBps"),
        t("programmes.vip.withdrawDailyLimit"),
      ]}
      levelName={(l) => String(l.level)}
      cells={(l) => [
        format.amount(l.minVolume),
        format.amount(l.minBalance),
        l.feeDiscountBps,
        l.withdrawDailyLimit === null
          ? t("programmes.vip.noLimit")
          : format.amount(l.withdrawDailyLimit),
      ]}
      valuesOf={(mode, asset, l) => ({
        mode,
        asset,
        level: l ? String(l.level) : "",
        minVolume: l?.minVolume ?? "0",
        minBalance: l?.minBalance ?? "0",
        feeDiscountBps: String(l?.feeDiscountBps ?? 0),
        withdrawDailyLimit: l?.withdrawDailyLimit ?? "0",
      })}
      Form={VipLevelForm}
      mayEdit={mayEdit}
      onDone={onDone}
    />
  );
}

/** The products an agent rebate is paid on, in the order the table shows them. */
const rebateProducts = ["spot", "perp", "stocks"] as const;

type AgentField =
  | "level"
  | "asset"
  | "upgradeMembers"
  | "upgradeVolume"
  | "keepMembers"
  | "keepVolume"
  | "spotBps"
  | "perpBps"
  | "stocksBps";

/**
 * One agent level of one mode. The kernel refuses a level without an upgrade condition, and
 * ratios that with the invitation rebate would exceed the fee.
 */
function AgentLevelForm(props: { initial: LevelValues<AgentField>; onDone: () => void }) {
  const t = useAdminT();
  const level = (v: LevelValues<AgentField>) => readInteger(v.level, 1, AGENT_LEVEL_MAX);
  const members = (text: string) => readInteger(text, 0, AGENT_MEMBERS_MAX);
  const bps = (text: string) => readInteger(text, 0, REBATE_BPS_MAX);
  return (
    <LevelForm
      {...props}
      kind="agent"
      keys="programmes.agents"
      fields={[
        ["level", t("programmes.agents.level"), "numeric"],
        ["asset", t("common.asset")],
        ["upgradeMembers", t("programmes.agents.upgradeMembers"), "numeric"],
        ["upgradeVolume", t("programmes.agents.upgradeVolume"), "decimal"],
        ["keepMembers", t("programmes.agents.keepMembers"), "numeric"],
        ["keepVolume", t("programmes.agents.keepVolume"), "decimal"],
        ...rebateProducts.map(
          (p) => [`${p}Bps`, t(`programmes.agents.rebate.${p}`), "numeric"] as const,
        ),
      ]}
      valid={(v) =>
        level(v) !== null &&
        members(v.upgradeMembers) !== null &&
        members(v.keepMembers) !== null &&
        rebateProducts.every((p) => bps(v[`${p}Bps`]) !== null) &&
        assetPattern.test(v.asset.trim()) &&
        isAmountOrZero(v.upgradeVolume) &&
        isAmountOrZero(v.keepVolume)
      }
      save={(v, remove, reason) =>
        configureAgentLevelAction(
          {
            mode: v.mode,
            level: level(v)!,
            asset: v.asset.trim(),
            upgradeMembers: members(v.upgradeMembers)!,
            upgradeVolume: v.upgradeVolume.trim(),
            keepMembers: members(v.keepMembers)!,
            keepVolume: v.keepVolume.trim(),
            rebateBps: { spot: bps(v.spotBps)!, perp: bps(v.perpBps)!, stocks: bps(v.stocksBps)! },
            remove,
          },
          reason,
        )
      }
      rule={t("programmes.agents.rule", { max: REBATE_BPS_MAX })}
    />
  );
}

/** The current agent levels of each mode. */
function AgentSection({ mayEdit, onDone }: { mayEdit: boolean; onDone: () => void }) {
  const t = useAdminT();
  const format = useAdminFormat();
  const query = useQuery({ queryKey: adminKeys.agentLevels(), queryFn: fetchAgentLevels });
  return (
    <LevelsSection
      kind="agent"
      keys="programmes.agents"
      query={query}
      headers={[
        t("programmes.agents.level"),
        t("programmes.agents.upgradeMembers"),
        t("programmes.agents.upgradeVolume"),
        t("programmes.agents.keepMembers"),
        t("programmes.agents.keepVolume"),
        ...rebateProducts.map((p) => t(`programmes.agents.rebate.${p}`)),
      ]}
      levelName={(l) => t("programmes.agents.levelName", { level: l.level })}
      cells={(l) => [
        l.upgradeMembers,
        format.amount(l.upgradeVolume),
        l.keepMembers,
        format.amount(l.keepVolume),
        ...rebateProducts.map((p) => l.rebateBps[p]),
      ]}
      valuesOf={(mode, asset, l) => ({
        mode,
        asset,
        level: l ? String(l.level) : "",
        upgradeMembers: String(l?.upgradeMembers ?? 0),
        upgradeVolume: l?.upgradeVolume ?? "0",
        keepMembers: String(l?.keepMembers ?? 0),
        keepVolume: l?.keepVolume ?? "0",
        spotBps: String(l?.rebateBps.spot ?? 0),
        perpBps: String(l?.rebateBps.perp ?? 0),
        stocksBps: String(l?.rebateBps.stocks ?? 0),
      })}
      Form={AgentLevelForm}
      mayEdit={mayEdit}
      onDone={onDone}
    />
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
        <ModeField value={mode} onChange={setMode} testId="admin-activity-form-mode" />
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
        <ModeField value={mode} onChange={setMode} testId="admin-promotion-fund-mode" />
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
