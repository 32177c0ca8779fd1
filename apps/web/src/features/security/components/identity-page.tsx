import type { IdentityOverview, IdentitySubmissionView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Input } from "antd-mobile";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { confirmThenRun } from "../../../lib/dialogs.tsx";
import { showError, withLoading } from "../../../lib/feedback.ts";
import { useSession } from "../../../lib/session.ts";
import {
  deleteIdentityDocuments,
  securityKeys,
  submitAdvancedIdentity,
  submitBasicIdentity,
  uploadIdentityImage,
  useIdentity,
} from "../api/security-api.ts";
import { countryOptions } from "../../../lib/countries.ts";

type DocumentType = "id_card" | "driving_licence" | "passport";
const documentTypes: DocumentType[] = ["id_card", "driving_licence", "passport"];

/**
 * Identity verification (spec assets/auth, index/CertificationInformation): the state
 * (unverified, under review, passed, not approved with the reason), the basic form
 * (nationality, real name, document type and number), then the advanced form (front and back
 * photos, a selfie if the user wishes), and every decision so far.
 */
export function IdentityPage() {
  const { t } = useTranslation();
  const demo = useSession()?.user.demoOnly === true;
  const identity = useIdentity();
  return (
    <section className="page" aria-labelledby="identity-title">
      <h1 id="identity-title">{t("identity.title")}</h1>
      {demo ? (
        <p className="hint">{t("identity.demoNote")}</p>
      ) : identity.isPending ? (
        <LoadingState />
      ) : identity.isError ? (
        <ErrorState message={identity.error.message} onRetry={() => void identity.refetch()} />
      ) : (
        <IdentityBody overview={identity.data} />
      )}
    </section>
  );
}

function IdentityBody({ overview }: { overview: IdentityOverview }) {
  const { t } = useTranslation();
  const latest = overview.history[0];
  const basicOpen = !overview.history.some(
    (s) => s.tier === "basic" && (s.state === "passed" || s.state === "under_review"),
  );
  const advancedOpen =
    overview.passedTier === "basic" &&
    !overview.history.some(
      (s) => s.tier === "advanced" && (s.state === "passed" || s.state === "under_review"),
    );
  return (
    <>
      <div className="order-card" role="status" data-testid="identity-state">
        <p>
          <strong>{t(`identity.states.${overview.state}`)}</strong>
        </p>
        {overview.passedTier ? (
          <p className="hint">{t(`identity.passed.${overview.passedTier}`)}</p>
        ) : null}
        {latest?.state === "not_approved" ? (
          <p data-testid="identity-reason">
            {t("identity.reason")}: {reasonText(latest, t)}
          </p>
        ) : null}
      </div>
      {basicOpen ? <BasicForm /> : null}
      {advancedOpen ? <AdvancedForm /> : null}
      {overview.history.length > 0 ? <History history={overview.history} /> : null}
    </>
  );
}

function reasonText(submission: IdentitySubmissionView, t: (key: string) => string): string {
  if (!submission.rejectReason) return "";
  if (submission.rejectReason === "other") return submission.rejectText ?? "";
  return t(`identity.reasons.${submission.rejectReason}`);
}

function BasicForm() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const [country, setCountry] = useState("");
  const [realName, setRealName] = useState("");
  const [documentType, setDocumentType] = useState<DocumentType>("id_card");
  const [documentNumber, setDocumentNumber] = useState("");
  const submit = async () => {
    try {
      await withLoading(submitBasicIdentity({ country, realName, documentType, documentNumber }));
      void queryClient.invalidateQueries({ queryKey: securityKeys.identity });
    } catch (error) {
      showError(error);
    }
  };
  return (
    <form
      className="order-form"
      aria-labelledby="identity-basic"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id="identity-basic">{t("identity.basic.title")}</h2>
      <label className="order-field">
        <span className="label">{t("identity.basic.country")}</span>
        <select
          className="native-select"
          value={country}
          onChange={(event) => setCountry(event.target.value)}
          data-testid="identity-country"
        >
          <option value="">{t("identity.basic.countryPrompt")}</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <Input
        aria-label={t("identity.basic.realName")}
        placeholder={t("identity.basic.realName")}
        value={realName}
        onChange={setRealName}
        maxLength={100}
        autoComplete="name"
        data-testid="identity-name"
      />
      <label className="order-field">
        <span className="label">{t("identity.basic.documentType")}</span>
        <select
          className="native-select"
          value={documentType}
          onChange={(event) => setDocumentType(event.target.value as DocumentType)}
          data-testid="identity-document-type"
        >
          {documentTypes.map((type) => (
            <option key={type} value={type}>
              {t(`identity.documentTypes.${type}`)}
            </option>
          ))}
        </select>
      </label>
      <Input
        aria-label={t("identity.basic.documentNumber")}
        placeholder={t("identity.basic.documentNumber")}
        value={documentNumber}
        onChange={setDocumentNumber}
        maxLength={32}
        autoComplete="off"
        data-testid="identity-number"
      />
      <Button
        type="submit"
        color="primary"
        disabled={!country || !realName.trim() || documentNumber.trim().length < 4}
        data-testid="identity-submit"
      >
        {t("identity.submit")}
      </Button>
    </form>
  );
}

function AdvancedForm() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [front, setFront] = useState<File | null>(null);
  const [back, setBack] = useState<File | null>(null);
  const [selfie, setSelfie] = useState<File | null>(null);
  const submit = async () => {
    if (!front || !back) return;
    try {
      await withLoading(
        (async () => {
          const frontUpload = await uploadIdentityImage(front);
          const backUpload = await uploadIdentityImage(back);
          const selfieUpload = selfie ? await uploadIdentityImage(selfie) : undefined;
          return submitAdvancedIdentity({
            frontUploadId: frontUpload.uploadId,
            backUploadId: backUpload.uploadId,
            ...(selfieUpload ? { selfieUploadId: selfieUpload.uploadId } : {}),
          });
        })(),
      );
      void queryClient.invalidateQueries({ queryKey: securityKeys.identity });
    } catch (error) {
      showError(error);
    }
  };
  const picker = (label: string, set: (file: File | null) => void, chosen: File | null) => (
    <div className="order-field">
      <span className="label">{label}</span>
      <label className="file-picker">
        <input
          type="file"
          accept="image/jpeg,image/png"
          className="visually-hidden"
          aria-label={label}
          onChange={(event) => set(event.target.files?.[0] ?? null)}
        />
        <span>{chosen ? chosen.name : t("identity.advanced.choose")}</span>
      </label>
    </div>
  );
  return (
    <form
      className="order-form"
      aria-labelledby="identity-advanced"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 id="identity-advanced">{t("identity.advanced.title")}</h2>
      <p className="hint">{t("identity.advanced.hint")}</p>
      {picker(t("identity.advanced.front"), setFront, front)}
      {picker(t("identity.advanced.back"), setBack, back)}
      {picker(t("identity.advanced.selfie"), setSelfie, selfie)}
      <Button type="submit" color="primary" disabled={!front || !back}>
        {t("identity.submit")}
      </Button>
    </form>
  );
}

function History({ history }: { history: IdentitySubmissionView[] }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const remove = async (submissionId: string) => {
    const outcome = await confirmThenRun(
      {
        title: t("identity.deleteDocuments.title"),
        content: t("identity.deleteDocuments.confirm"),
        confirmText: t("identity.deleteDocuments.action"),
      },
      () => deleteIdentityDocuments(submissionId),
      null,
    );
    if (outcome === "done") void queryClient.invalidateQueries({ queryKey: securityKeys.identity });
  };
  const time = (ms: number) =>
    new Date(ms).toLocaleString(i18n.language, { timeZone: "UTC" }) + " UTC";
  return (
    <>
      <h2>{t("identity.history")}</h2>
      <ul className="plain-list" data-testid="identity-history">
        {history.map((s) => (
          <li key={s.submissionId} className="order-card">
            <p>
              <strong>{t(`identity.tiers.${s.tier}`)}</strong> · {t(`identity.states.${s.state}`)}
            </p>
            <p className="hint">
              {time(s.createdAtMs)}
              {s.decidedAtMs ? ` → ${time(s.decidedAtMs)}` : ""}
            </p>
            {s.state === "not_approved" ? (
              <p>
                {t("identity.reason")}: {reasonText(s, t)}
              </p>
            ) : null}
            {s.documentsDeleted ? (
              <p className="hint" data-testid="identity-documents-deleted">
                {t("identity.deleteDocuments.done")}
              </p>
            ) : s.tier === "advanced" && s.state !== "under_review" ? (
              <Button
                size="small"
                fill="outline"
                color="danger"
                onClick={() => void remove(s.submissionId)}
                data-testid="identity-delete-documents"
              >
                {t("identity.deleteDocuments.action")}
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}
