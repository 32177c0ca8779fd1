import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { bootstrapOperator, confirmOperatorTotp, signInOperator } from "../api/admin-api.ts";
import { AdminPage, EnrolmentCard, Field, useAdminT, useErrorText } from "./admin-ui.tsx";

/** A form that runs `run` on submit and shows its error in the operator's language. */
function useSubmit(run: () => Promise<void>) {
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await run();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, onSubmit: (event: FormEvent) => void onSubmit(event) };
}

function FormError({ error }: { error: string | null }) {
  return error ? (
    <p className="admin-error" role="alert" data-testid="admin-form-error">
      {error}
    </p>
  ) : null;
}

/** What both the sign-in and the authenticator confirmation ask: e-mail, password, a code. */
interface Credentials {
  email: string;
  password: string;
  code: string;
}

/**
 * The e-mail, password and 6-digit code form shared by sign-in and the first-code confirmation
 * (one form, two submit actions). `testIdPrefix` names the fields (`admin` → `admin-email`).
 */
function CredentialsForm({
  testIdPrefix,
  formTestId,
  submitLabel,
  submitTestId,
  initialEmail = "",
  initialPassword = "",
  submit,
}: {
  testIdPrefix: string;
  formTestId?: string;
  submitLabel: string;
  submitTestId?: string;
  initialEmail?: string;
  initialPassword?: string;
  submit: (credentials: Credentials) => Promise<void>;
}) {
  const t = useAdminT();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState(initialPassword);
  const [code, setCode] = useState("");
  const form = useSubmit(() => submit({ email: email.trim(), password, code: code.trim() }));
  return (
    <form className="admin-form" onSubmit={form.onSubmit} data-testid={formTestId}>
      <Field
        label={t("signIn.email")}
        type="email"
        value={email}
        onChange={setEmail}
        testId={`${testIdPrefix}-email`}
        autoComplete="username"
        required
      />
      <Field
        label={t("signIn.password")}
        type="password"
        value={password}
        onChange={setPassword}
        testId={`${testIdPrefix}-password`}
        autoComplete="current-password"
        required
      />
      <Field
        label={t("signIn.code")}
        value={code}
        onChange={setCode}
        testId={`${testIdPrefix}-code`}
        inputMode="numeric"
        autoComplete="one-time-code"
        required
      />
      <button
        type="submit"
        className="admin-button"
        disabled={form.busy}
        data-testid={submitTestId}
      >
        {submitLabel}
      </button>
      <FormError error={form.error} />
    </form>
  );
}

/** Operator sign-in: e-mail, password and the authenticator's 6-digit code, all mandatory. */
export function SignInPage() {
  const t = useAdminT();
  const navigate = useNavigate();
  return (
    <main className="admin-auth">
      <AdminPage title={t("signIn.title")} testId="admin-sign-in">
        <CredentialsForm
          testIdPrefix="admin"
          submitLabel={t("signIn.submit")}
          submitTestId="admin-sign-in-submit"
          submit={async (credentials) => {
            await signInOperator(credentials);
            await navigate("/admin/users", { replace: true });
          }}
        />
        <p>
          <Link to="/admin/confirm">{t("signIn.firstTime")}</Link>
        </p>
        <p>
          <Link to="/admin/bootstrap">{t("signIn.bootstrap")}</Link>
        </p>
      </AdminPage>
    </main>
  );
}

/** The first code from a new operator's authenticator app, with their password. */
function ConfirmForm({ initialEmail = "", initialPassword = "" }) {
  const t = useAdminT();
  const [confirmed, setConfirmed] = useState(false);
  if (confirmed) {
    return (
      <div className="admin-card" role="status" data-testid="admin-confirmed">
        <p>{t("confirm.done")}</p>
        <Link to="/admin/sign-in">{t("signIn.title")}</Link>
      </div>
    );
  }
  return (
    <CredentialsForm
      testIdPrefix="admin-confirm"
      formTestId="admin-confirm-form"
      submitLabel={t("confirm.submit")}
      initialEmail={initialEmail}
      initialPassword={initialPassword}
      submit={async (credentials) => {
        await confirmOperatorTotp(credentials);
        setConfirmed(true);
      }}
    />
  );
}

/**
 * First-time authenticator confirmation: the operator scanned the QR code an admin showed them
 * when creating the account, and confirms it with their password and a first code.
 */
export function ConfirmTotpPage() {
  const t = useAdminT();
  return (
    <main className="admin-auth">
      <AdminPage title={t("confirm.title")} testId="admin-confirm">
        <p>{t("confirm.intro")}</p>
        <ConfirmForm />
        <p>
          <Link to="/admin/sign-in">{t("signIn.title")}</Link>
        </p>
      </AdminPage>
    </main>
  );
}

/**
 * The first admin of a deployment, created with the bootstrap token (refused once any operator
 * exists); then the QR code to scan, and the first code to confirm it.
 */
export function BootstrapPage() {
  const t = useAdminT();
  const [bootstrapToken, setBootstrapToken] = useState("");
  const [email, setEmail] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [enrolment, setEnrolment] = useState<Awaited<ReturnType<typeof bootstrapOperator>> | null>(
    null,
  );
  const form = useSubmit(async () => {
    setEnrolment(
      await bootstrapOperator(bootstrapToken.trim(), {
        email: email.trim(),
        displayName: displayName.trim(),
        password,
      }),
    );
    setBootstrapToken("");
  });
  return (
    <main className="admin-auth">
      <AdminPage title={t("bootstrap.title")} testId="admin-bootstrap">
        {enrolment ? (
          <>
            <EnrolmentCard enrolment={enrolment} />
            <ConfirmForm initialEmail={enrolment.operator.email} initialPassword={password} />
          </>
        ) : (
          <>
            <p>{t("bootstrap.intro")}</p>
            <form className="admin-form" onSubmit={form.onSubmit}>
              <Field
                label={t("bootstrap.token")}
                type="password"
                value={bootstrapToken}
                onChange={setBootstrapToken}
                testId="admin-bootstrap-token"
                required
              />
              <Field
                label={t("signIn.email")}
                type="email"
                value={email}
                onChange={setEmail}
                testId="admin-bootstrap-email"
                required
              />
              <Field
                label={t("operators.displayName")}
                value={displayName}
                onChange={setDisplayName}
                testId="admin-bootstrap-name"
                required
              />
              <Field
                label={t("operators.password")}
                type="password"
                value={password}
                onChange={setPassword}
                testId="admin-bootstrap-password"
                autoComplete="new-password"
                required
              />
              <button type="submit" className="admin-button" disabled={form.busy}>
                {t("bootstrap.submit")}
              </button>
              <FormError error={form.error} />
            </form>
          </>
        )}
        <p>
          <Link to="/admin/sign-in">{t("signIn.title")}</Link>
        </p>
      </AdminPage>
    </main>
  );
}
