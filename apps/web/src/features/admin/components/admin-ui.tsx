import type { UseQueryResult } from "@tanstack/react-query";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { QrImage } from "../../../components/ui/qr-image.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useFormat } from "../../../lib/format.ts";
import { isReason, reasonLengthMax } from "../lib/forms.ts";

/** The back office's texts (the `admin` namespace). */
export function useAdminT() {
  return useTranslation("admin").t;
}

/** What went wrong, in the operator's language: the server's message, else a general text. */
export function useErrorText() {
  const t = useAdminT();
  return (error: unknown) =>
    error instanceof ApiError && error.message ? error.message : t("common.failed");
}

/** A page of the back office: its heading and content. */
export function AdminPage({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="admin-page" aria-labelledby={id} data-testid={testId}>
      <h1 id={id}>{title}</h1>
      {children}
    </section>
  );
}

/** Loading, error (with retry) and empty states of a query, else `children`. */
export function QueryView<T>({
  query,
  isEmpty,
  emptyText,
  children,
}: {
  query: UseQueryResult<T>;
  isEmpty?: (data: T) => boolean;
  emptyText?: string;
  children: (data: T) => ReactNode;
}) {
  const t = useAdminT();
  const errorText = useErrorText();
  if (query.isPending) {
    return (
      <p className="admin-state" role="status">
        {t("common.loading")}
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="admin-state admin-error" role="alert" data-testid="admin-error">
        <p>{errorText(query.error)}</p>
        <button type="button" onClick={() => void query.refetch()}>
          {t("common.retry")}
        </button>
      </div>
    );
  }
  if (isEmpty?.(query.data)) {
    return (
      <p className="admin-state" role="status" data-testid="admin-empty">
        {emptyText ?? t("common.empty")}
      </p>
    );
  }
  return <>{children(query.data)}</>;
}

/** A labelled input. */
export function Field({
  label,
  value,
  onChange,
  type = "text",
  testId,
  required,
  inputMode,
  autoComplete,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: "text" | "email" | "password" | "search" | "number" | "datetime-local";
  testId?: string;
  required?: boolean;
  inputMode?: "numeric" | "decimal" | "text";
  autoComplete?: string;
  placeholder?: string;
}) {
  return (
    <label className="admin-field">
      <span>{label}</span>
      <input
        type={type}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testId}
        required={required}
        inputMode={inputMode}
        autoComplete={autoComplete ?? "off"}
        placeholder={placeholder}
      />
    </label>
  );
}

/** A labelled select of `options` (value and text). */
export function SelectField<V extends string>({
  label,
  value,
  onChange,
  options,
  testId,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  options: readonly { value: V; text: string }[];
  testId?: string;
}) {
  return (
    <label className="admin-field">
      <span>{label}</span>
      <select
        value={value}
        onChange={(event) => onChange(event.target.value as V)}
        data-testid={testId}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The real/demo choice of a form or a page. */
export function ModeField({
  value,
  onChange,
  testId,
}: {
  value: "real" | "demo";
  onChange: (mode: "real" | "demo") => void;
  testId?: string;
}) {
  const t = useAdminT();
  return (
    <SelectField
      label={t("common.mode")}
      value={value}
      onChange={onChange}
      options={[
        { value: "real", text: t("common.modes.real") },
        { value: "demo", text: t("common.modes.demo") },
      ]}
      testId={testId}
    />
  );
}

/** A labelled checkbox. */
export function CheckField({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
}) {
  return (
    <label className="admin-check">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        data-testid={testId}
      />
      <span>{label}</span>
    </label>
  );
}

/**
 * One operator action: its own fields (`children`), the reason every operator action needs
 * (it goes to the audit log and the affected user's history), and a submit button. The action
 * runs only with a valid reason and `valid` fields; its error shows in the operator's language.
 */
export function ActionForm({
  submitLabel,
  testId,
  run,
  onDone,
  valid = true,
  children,
  danger,
  reasonField = true,
}: {
  /** False when the action's own fields are its reason (an identity refusal's listed reason). */
  reasonField?: boolean;
  submitLabel: string;
  testId: string;
  run: (reason: string) => Promise<unknown>;
  onDone?: (result: unknown) => void;
  valid?: boolean;
  children?: ReactNode;
  danger?: boolean;
}) {
  const t = useAdminT();
  const errorText = useErrorText();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    if (reasonField && !isReason(reason)) {
      setError(t("reason.invalid"));
      return;
    }
    if (!valid) {
      setError(t("common.invalid"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const result = await run(reason);
      setReason("");
      setDone(true);
      onDone?.(result);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="admin-action" data-testid={testId} onSubmit={(event) => void submit(event)}>
      {children}
      {reasonField ? (
        <label className="admin-field admin-reason">
          <span>{t("reason.label")}</span>
          <textarea
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            maxLength={reasonLengthMax}
            rows={2}
            required
            placeholder={t("reason.placeholder")}
            data-testid={`${testId}-reason`}
          />
        </label>
      ) : null}
      <button
        type="submit"
        disabled={busy}
        className={danger ? "admin-button admin-danger" : "admin-button"}
        data-testid={`${testId}-submit`}
      >
        {submitLabel}
      </button>
      {error ? (
        <p className="admin-error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
      {done ? (
        <p className="admin-done" role="status" data-testid={`${testId}-done`}>
          {t("common.done")}
        </p>
      ) : null}
    </form>
  );
}

/**
 * A back-office table whose rows may each be edited: an "Edit" button named after the row's
 * first cell in a last column, shown only to roles that may edit (the server decides anyway).
 */
export function EditableTable({
  headers,
  rows,
  mayEdit,
}: {
  headers: readonly string[];
  rows: readonly { key: string; testId?: string; cells: readonly ReactNode[]; edit: () => void }[];
  mayEdit: boolean;
}) {
  const t = useAdminT();
  return (
    <table className="admin-table">
      <thead>
        <tr>
          {headers.map((header) => (
            <th key={header} scope="col">
              {header}
            </th>
          ))}
          {mayEdit ? (
            <th scope="col">
              <span className="admin-visually-hidden">{t("common.edit")}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} data-testid={row.testId}>
            {row.cells.map((cell, index) => (
              <td key={index}>{cell}</td>
            ))}
            {mayEdit ? (
              <td>
                <button
                  type="button"
                  className="admin-link-button"
                  onClick={row.edit}
                  aria-label={`${t("common.edit")} ${row.key}`}
                >
                  {t("common.edit")}
                </button>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Amounts and times as the operator's locale writes them (decimal strings, never floats). */
export function useAdminFormat() {
  const format = useFormat();
  return {
    amount: (value: string | null | undefined) =>
      value === null || value === undefined ? "--" : format.amount(value, { decimalsMax: 18 }),
    /** An ISO time or milliseconds since the epoch. */
    time: (value: string | number | null | undefined) => {
      if (value === null || value === undefined) return "--";
      const ms = typeof value === "number" ? value : Date.parse(value);
      return Number.isFinite(ms) ? format.dateTime(ms) : "--";
    },
  };
}

/** An authenticator enrolment, shown once: the QR code of the otpauth:// URI and the secret. */
export function EnrolmentCard({
  enrolment,
}: {
  enrolment: { operator: { email: string }; totpSecret: string; otpauthUri: string };
}) {
  const t = useAdminT();
  return (
    <div className="admin-card" data-testid="operator-enrolment">
      <p role="note">{t("enrolment.once", { email: enrolment.operator.email })}</p>
      <QrImage text={enrolment.otpauthUri} alt={t("enrolment.qr")} testId="operator-qr" />
      <dl className="admin-dl">
        <dt>{t("enrolment.secret")}</dt>
        <dd className="admin-mono" data-testid="operator-totp-secret">
          {enrolment.totpSecret}
        </dd>
      </dl>
      <p>{t("enrolment.next")}</p>
    </div>
  );
}
