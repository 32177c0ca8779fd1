import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  adminKeys,
  createOperator,
  disableOperator,
  enableOperator,
  fetchOperators,
} from "../api/admin-api.ts";
import { useOperatorSession, type OperatorRole } from "../lib/operator-session.ts";
import {
  ActionForm,
  AdminPage,
  EnrolmentCard,
  Field,
  QueryView,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";

const roles: readonly OperatorRole[] = ["support", "compliance", "finance", "admin"];

type Enrolment = Awaited<ReturnType<typeof createOperator>>;

/** A new or returning operator's authenticator secret, until the admin hides it. */
function EnrolmentShownOnce({ enrolment, onHide }: { enrolment: Enrolment; onHide: () => void }) {
  const t = useAdminT();
  return (
    <>
      <EnrolmentCard enrolment={enrolment} />
      <button type="button" className="admin-button admin-secondary" onClick={onHide}>
        {t("operators.hideQr")}
      </button>
    </>
  );
}

/**
 * Operators (admin): the list, a new operator with a role (their QR code shows once),
 * disabling another operator (with a reason; their sessions end at once) and letting a disabled
 * one back in (a new password and authenticator; the QR code shows once).
 */
export function OperatorsPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  const me = useOperatorSession()?.operator.id;
  const [disabling, setDisabling] = useState<{ id: string; displayName: string } | null>(null);
  const [enabling, setEnabling] = useState<{ id: string; displayName: string } | null>(null);
  const [returningPassword, setReturningPassword] = useState("");
  const [returned, setReturned] = useState<Enrolment | null>(null);
  const operators = useQuery({ queryKey: adminKeys.operators(), queryFn: fetchOperators });
  const [email, setEmail] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<OperatorRole>("support");
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  return (
    <AdminPage title={t("operators.title")} testId="admin-operators">
      <QueryView query={operators} isEmpty={(data) => data.operators.length === 0}>
        {(data) => (
          <table className="admin-table" data-testid="admin-operator-list">
            <thead>
              <tr>
                <th scope="col">{t("users.id")}</th>
                <th scope="col">{t("operators.displayName")}</th>
                <th scope="col">{t("signIn.email")}</th>
                <th scope="col">{t("operators.role")}</th>
                <th scope="col">{t("users.status")}</th>
                <th scope="col">{t("users.createdAt")}</th>
                <th scope="col">{t("operators.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {data.operators.map((operator) => (
                <tr key={operator.id}>
                  <td>{operator.id}</td>
                  <td>{operator.displayName}</td>
                  <td>{operator.email}</td>
                  <td>{t(`roles.${operator.role}`)}</td>
                  <td>{operator.disabled ? t("operators.disabled") : t("users.active")}</td>
                  <td>{format.time(operator.createdAt)}</td>
                  <td>
                    {operator.id === me ? (
                      t("operators.you")
                    ) : operator.disabled ? (
                      <button
                        type="button"
                        className="admin-button admin-secondary"
                        data-testid={`admin-operator-enable-${operator.id}`}
                        onClick={() => {
                          setReturned(null);
                          setReturningPassword("");
                          setEnabling(operator);
                        }}
                      >
                        {t("operators.enable")}
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="admin-button admin-secondary"
                        data-testid={`admin-operator-disable-${operator.id}`}
                        onClick={() => setDisabling(operator)}
                      >
                        {t("operators.disable")}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
      {disabling ? (
        <>
          <h2>{t("operators.disableTitle", { name: disabling.displayName })}</h2>
          <p>{t("operators.disableHint")}</p>
          <ActionForm
            danger
            submitLabel={t("operators.disableSubmit")}
            testId="admin-operator-disable"
            run={(reason) => disableOperator(disabling.id, reason.trim())}
            onDone={() => {
              setDisabling(null);
              void queryClient.invalidateQueries({ queryKey: adminKeys.operators() });
            }}
          />
          <button
            type="button"
            className="admin-button admin-secondary"
            onClick={() => setDisabling(null)}
          >
            {t("operators.keep")}
          </button>
        </>
      ) : null}
      {enabling ? (
        <>
          <h2>{t("operators.enableTitle", { name: enabling.displayName })}</h2>
          {returned ? (
            <EnrolmentShownOnce enrolment={returned} onHide={() => setEnabling(null)} />
          ) : (
            <>
              <p>{t("operators.enableHint")}</p>
              <ActionForm
                submitLabel={t("operators.enableSubmit")}
                testId="admin-operator-enable"
                valid={returningPassword.length >= 12}
                run={(reason) => enableOperator(enabling.id, returningPassword, reason.trim())}
                onDone={(result) => {
                  setReturned(result as Enrolment);
                  setReturningPassword("");
                  void queryClient.invalidateQueries({ queryKey: adminKeys.operators() });
                }}
              >
                <Field
                  label={t("operators.password")}
                  type="password"
                  value={returningPassword}
                  onChange={setReturningPassword}
                  autoComplete="new-password"
                  testId="admin-operator-enable-password"
                />
              </ActionForm>
              <button
                type="button"
                className="admin-button admin-secondary"
                onClick={() => setEnabling(null)}
              >
                {t("operators.keepDisabled")}
              </button>
            </>
          )}
        </>
      ) : null}
      <h2>{t("operators.create")}</h2>
      {enrolment ? (
        <EnrolmentShownOnce enrolment={enrolment} onHide={() => setEnrolment(null)} />
      ) : (
        <ActionForm
          submitLabel={t("operators.createSubmit")}
          testId="admin-operator-create"
          valid={email.includes("@") && displayName.trim().length > 0 && password.length >= 12}
          run={(reason) =>
            createOperator({
              email: email.trim(),
              displayName: displayName.trim(),
              password,
              role,
              reason: reason.trim(),
            })
          }
          onDone={(result) => {
            setEnrolment(result as Enrolment);
            setEmail("");
            setDisplayName("");
            setPassword("");
            void queryClient.invalidateQueries({ queryKey: adminKeys.operators() });
          }}
        >
          <Field
            label={t("signIn.email")}
            type="email"
            value={email}
            onChange={setEmail}
            testId="admin-operator-email"
          />
          <Field
            label={t("operators.displayName")}
            value={displayName}
            onChange={setDisplayName}
            testId="admin-operator-name"
          />
          <Field
            label={t("operators.password")}
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="new-password"
            testId="admin-operator-password"
          />
          <SelectField
            label={t("operators.role")}
            value={role}
            onChange={setRole}
            options={roles.map((value) => ({ value, text: t(`roles.${value}`) }))}
            testId="admin-operator-role"
          />
        </ActionForm>
      )}
    </AdminPage>
  );
}
