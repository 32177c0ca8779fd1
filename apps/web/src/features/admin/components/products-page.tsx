import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  adminKeys,
  configureLoanProductAction,
  configureSecondsProductAction,
  defineSavingsPlanAction,
  fetchLoanProducts,
  fetchSavingsPlans,
  fetchSecondsProducts,
} from "../api/admin-api.ts";
import {
  configValuesOf,
  loanFields,
  readConfig,
  savingsFields,
  secondsFields,
  type ConfigField,
  type ConfigFieldName,
  type ConfigValues,
} from "../lib/config-form.ts";
import {
  ActionForm,
  AdminPage,
  CheckField,
  Field,
  QueryView,
  ModeField,
  SelectField,
  useAdminT,
} from "./admin-ui.tsx";

type Mode = "real" | "demo";

/**
 * One product's terms as a form, filled with its current values; saving changes the terms of
 * later purchases only (the kernel applies them; nothing here touches a result or a balance).
 */
function ConfigForm({
  fields,
  initial,
  testId,
  save,
  onDone,
}: {
  fields: readonly ConfigField[];
  initial: ConfigValues;
  testId: string;
  save: (body: Record<string, string | number | boolean>, reason: string) => Promise<unknown>;
  onDone: () => void;
}) {
  const t = useAdminT();
  const [values, setValues] = useState<ConfigValues>(initial);
  const read = readConfig(fields, values);
  const set = (name: string, value: string | boolean) =>
    setValues((current) => ({ ...current, [name]: value }));
  return (
    <ActionForm
      submitLabel={t("products.save")}
      testId={testId}
      valid={read.ok}
      run={(reason) => (read.ok ? save(read.body, reason) : Promise.reject(new Error("invalid")))}
      onDone={onDone}
    >
      <div className="admin-grid">
        {fields.map((field) => {
          const label = t(`products.fields.${field.name as ConfigFieldName}`);
          const value = values[field.name];
          if (field.kind === "boolean") {
            return (
              <CheckField
                key={field.name}
                label={label}
                checked={value === true}
                onChange={(checked) => set(field.name, checked)}
              />
            );
          }
          if (field.kind === "select") {
            return (
              <SelectField
                key={field.name}
                label={label}
                value={typeof value === "string" ? value : ""}
                onChange={(next) => set(field.name, next)}
                options={field.options.map((option) => ({ value: option, text: option }))}
              />
            );
          }
          return (
            <Field
              key={field.name}
              label={label}
              value={typeof value === "string" ? value : ""}
              onChange={(next) => set(field.name, next)}
              inputMode={field.kind === "text" ? "text" : "decimal"}
              testId={`${testId}-${field.name}`}
            />
          );
        })}
      </div>
      {!read.ok ? (
        <p className="admin-hint">
          {t("products.invalidFields", {
            fields: read.invalid
              .map((name) => t(`products.fields.${name as ConfigFieldName}`))
              .join(", "),
          })}
        </p>
      ) : null}
    </ActionForm>
  );
}

/** A table of a product kind's current terms, with "edit" per row and "new". */
function ProductSection<T extends Record<string, unknown>>({
  title,
  rows,
  keyOf,
  fields,
  columns,
  testId,
  save,
  onDone,
}: {
  title: string;
  rows: readonly T[];
  keyOf: (row: T) => string;
  fields: readonly ConfigField[];
  columns: readonly ConfigFieldName[];
  testId: string;
  save: (
    body: Record<string, string | number | boolean>,
    reason: string,
    row: T | null,
  ) => Promise<unknown>;
  onDone: () => void;
}) {
  const t = useAdminT();
  const [editing, setEditing] = useState<{ key: string; row: T | null } | null>(null);
  return (
    <section className="admin-card" data-testid={testId}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="admin-state">{t("products.none")}</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {t(`products.fields.${column}`)}
                </th>
              ))}
              <th scope="col">
                <span className="admin-visually-hidden">{t("products.edit")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={keyOf(row)}>
                {columns.map((column) => (
                  <td key={column}>{show(row[column], t("common.yes"), t("common.no"))}</td>
                ))}
                <td>
                  <button
                    type="button"
                    className="admin-link-button"
                    onClick={() => setEditing({ key: keyOf(row), row })}
                  >
                    {t("products.edit")}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button
        type="button"
        className="admin-button admin-secondary"
        onClick={() => setEditing({ key: `new-${Date.now()}`, row: null })}
      >
        {t("products.new")}
      </button>
      {editing ? (
        <ConfigForm
          key={editing.key}
          fields={fields}
          initial={configValuesOf(fields, editing.row ?? {})}
          testId={`${testId}-form`}
          save={(body, reason) => save(body, reason, editing.row)}
          onDone={() => {
            setEditing(null);
            onDone();
          }}
        />
      ) : null}
    </section>
  );
}

function show(value: unknown, yes: string, no: string): string {
  if (value === true) return yes;
  if (value === false) return no;
  if (value === null || value === undefined) return "--";
  return String(value);
}

/** Product configuration: seconds products, savings plans, loan products (current and edit). */
export function ProductsPage() {
  const t = useAdminT();
  const [mode, setMode] = useState<Mode>("real");
  const queryClient = useQueryClient();
  const seconds = useQuery({
    queryKey: adminKeys.secondsProducts(mode),
    queryFn: () => fetchSecondsProducts(mode),
  });
  const savings = useQuery({
    queryKey: adminKeys.savingsPlans(mode),
    queryFn: () => fetchSavingsPlans(mode),
  });
  const loans = useQuery({
    queryKey: adminKeys.loanProducts(mode),
    queryFn: () => fetchLoanProducts(mode),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage title={t("products.title")} testId="admin-products">
      <p className="admin-hint">{t("products.intro")}</p>
      <ModeField value={mode} onChange={setMode} />
      <QueryView query={seconds}>
        {(data) => (
          <ProductSection
            title={t("products.seconds")}
            rows={data.items}
            keyOf={(row) => `${row.instrumentId}:${row.periodS}`}
            fields={secondsFields}
            columns={[
              "instrumentId",
              "periodS",
              "asset",
              "payoutBps",
              "stakeMin",
              "stakeMax",
              "graceS",
              "open",
            ]}
            testId="admin-seconds-products"
            save={(body, reason) =>
              configureSecondsProductAction(
                body as Parameters<typeof configureSecondsProductAction>[0],
                reason,
              )
            }
            onDone={refresh}
          />
        )}
      </QueryView>
      <QueryView query={savings}>
        {(data) => (
          <ProductSection
            title={t("products.savings")}
            rows={data.items}
            keyOf={(row) => row.planId}
            fields={savingsFields}
            columns={[
              "planId",
              "kind",
              "name",
              "asset",
              "cycleDays",
              "dailyRatePercent",
              "capacity",
              "open",
            ]}
            testId="admin-savings-plans"
            save={(body, reason, row) =>
              defineSavingsPlanAction(
                {
                  ...(body as unknown as Parameters<typeof defineSavingsPlanAction>[0]),
                  hardware: body.kind === "mining" ? (row?.hardware ?? null) : null,
                },
                reason,
              )
            }
            onDone={refresh}
          />
        )}
      </QueryView>
      <QueryView query={loans}>
        {(data) => (
          <ProductSection
            title={t("products.loans")}
            rows={data.items.map((item) => ({ ...item, ...item.terms }))}
            keyOf={(row) => row.productId}
            fields={loanFields}
            columns={[
              "productId",
              "loanAsset",
              "collateralAsset",
              "termDays",
              "dailyRatePpm",
              "ltvInitialBps",
              "reviewRequired",
              "open",
            ]}
            testId="admin-loan-products"
            save={(body, reason) =>
              configureLoanProductAction(
                body as Parameters<typeof configureLoanProductAction>[0],
                reason,
              )
            }
            onDone={refresh}
          />
        )}
      </QueryView>
    </AdminPage>
  );
}
