import type { IdentityRejectReason } from "@candor/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import {
  adminKeys,
  approveIdentity,
  fetchIdentityDetail,
  fetchIdentityQueue,
  rejectIdentity,
} from "../api/admin-api.ts";
import {
  ActionForm,
  AdminPage,
  QueryView,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";
import { DocumentImage } from "./document-image.tsx";

type QueueState = "under_review" | "not_approved" | "passed";
const queueStates: readonly QueueState[] = ["under_review", "not_approved", "passed"];

const rejectReasons: readonly IdentityRejectReason[] = [
  "document_unreadable",
  "document_expired",
  "name_mismatch",
  "number_mismatch",
  "selfie_mismatch",
  "document_not_accepted",
  "other",
];

/** Identity reviews: the queue of submissions by state, oldest first. */
export function IdentityPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const [state, setState] = useState<QueueState>("under_review");
  const queue = useQuery({
    queryKey: adminKeys.identity(state),
    queryFn: () => fetchIdentityQueue(state),
  });
  return (
    <AdminPage title={t("identity.title")} testId="admin-identity">
      <SelectField
        label={t("common.state")}
        value={state}
        onChange={setState}
        options={queueStates.map((value) => ({ value, text: t(`identityStates.${value}`) }))}
        testId="admin-identity-state"
      />
      <QueryView
        query={queue}
        isEmpty={(data) => data.items.length === 0}
        emptyText={t("identity.empty")}
      >
        {(data) => (
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t("identity.submission")}</th>
                <th scope="col">{t("audit.user")}</th>
                <th scope="col">{t("identity.tier")}</th>
                <th scope="col">{t("identity.realName")}</th>
                <th scope="col">{t("users.country")}</th>
                <th scope="col">{t("identity.submittedAt")}</th>
                <th scope="col">{t("common.operator")}</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => (
                <tr
                  key={item.submissionId}
                  data-testid="admin-identity-row"
                  data-user={item.userId}
                >
                  <td>
                    <Link to={`/admin/identity/${item.submissionId}`}>
                      {t("identity.review", { id: item.submissionId })}
                    </Link>
                  </td>
                  <td>
                    <Link to={`/admin/users/${item.userId}`}>{item.userId}</Link>
                  </td>
                  <td>{t(`identity.tiers.${item.tier}`)}</td>
                  <td>{item.realName ?? "--"}</td>
                  <td>{item.country ?? "--"}</td>
                  <td>{format.time(item.createdAtMs)}</td>
                  <td>{item.operatorId ?? "--"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryView>
    </AdminPage>
  );
}

/** One submission: its details, the document viewer, earlier decisions; approve or refuse. */
export function IdentityDetailPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const { submissionId = "" } = useParams();
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: adminKeys.identityDetail(submissionId),
    queryFn: () => fetchIdentityDetail(submissionId),
  });
  const [rejectReason, setRejectReason] = useState<IdentityRejectReason>("document_unreadable");
  const [text, setText] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage
      title={t("identity.detailTitle", { id: submissionId })}
      testId="admin-identity-detail"
    >
      <QueryView query={detail}>
        {({ submission, history }) => (
          <>
            <dl className="admin-dl">
              <dt>{t("audit.user")}</dt>
              <dd>
                <Link to={`/admin/users/${submission.userId}`}>{submission.userId}</Link>
              </dd>
              <dt>{t("common.state")}</dt>
              <dd data-testid="admin-identity-state-value">
                {t(`identityStates.${submission.state}`)}
              </dd>
              <dt>{t("identity.tier")}</dt>
              <dd>{t(`identity.tiers.${submission.tier}`)}</dd>
              <dt>{t("users.country")}</dt>
              <dd>{submission.country ?? "--"}</dd>
              <dt>{t("identity.realName")}</dt>
              <dd>{submission.realName ?? "--"}</dd>
              <dt>{t("identity.documentType")}</dt>
              <dd>
                {submission.documentType
                  ? t(`identity.documentTypes.${submission.documentType}`)
                  : "--"}
              </dd>
              <dt>{t("identity.documentNumber")}</dt>
              <dd className="admin-mono">{submission.documentNumber ?? "--"}</dd>
              <dt>{t("identity.submittedAt")}</dt>
              <dd>{format.time(submission.createdAtMs)}</dd>
              {submission.rejectReason ? (
                <>
                  <dt>{t("identity.rejectReason")}</dt>
                  <dd>
                    {t(`identity.reasons.${submission.rejectReason}`)}
                    {submission.rejectText ? ` · ${submission.rejectText}` : ""}
                  </dd>
                </>
              ) : null}
            </dl>
            {submission.documentsDeleted ? (
              <p className="hint" data-testid="admin-identity-documents-deleted">
                {t("identity.documentsDeleted")}
              </p>
            ) : null}
            <div className="admin-documents">
              {submission.frontUploadId ? (
                <DocumentImage uploadId={submission.frontUploadId} label={t("identity.front")} />
              ) : null}
              {submission.backUploadId ? (
                <DocumentImage uploadId={submission.backUploadId} label={t("identity.back")} />
              ) : null}
              {submission.selfieUploadId ? (
                <DocumentImage uploadId={submission.selfieUploadId} label={t("identity.selfie")} />
              ) : null}
            </div>
            {submission.state === "under_review" ? (
              <div className="admin-actions">
                <ActionForm
                  submitLabel={t("identity.approve")}
                  testId="admin-identity-approve"
                  run={(reason) => approveIdentity(submission.submissionId, reason)}
                  onDone={refresh}
                />
                <ActionForm
                  submitLabel={t("identity.reject")}
                  testId="admin-identity-reject"
                  danger
                  reasonField={false}
                  valid={rejectReason !== "other" || text.trim().length > 0}
                  run={() => rejectIdentity(submission.submissionId, { rejectReason, text })}
                  onDone={refresh}
                >
                  <SelectField
                    label={t("identity.rejectReason")}
                    value={rejectReason}
                    onChange={setRejectReason}
                    options={rejectReasons.map((value) => ({
                      value,
                      text: t(`identity.reasons.${value}`),
                    }))}
                    testId="admin-identity-refusal-reason"
                  />
                  {rejectReason === "other" ? (
                    <label className="admin-field">
                      <span>{t("identity.rejectText")}</span>
                      <textarea
                        value={text}
                        onChange={(event) => setText(event.target.value)}
                        maxLength={500}
                        rows={2}
                        data-testid="admin-identity-refusal-text"
                      />
                    </label>
                  ) : null}
                </ActionForm>
              </div>
            ) : null}
            <h2>{t("identity.history")}</h2>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t("identity.submission")}</th>
                  <th scope="col">{t("identity.tier")}</th>
                  <th scope="col">{t("common.state")}</th>
                  <th scope="col">{t("identity.rejectReason")}</th>
                  <th scope="col">{t("common.operator")}</th>
                  <th scope="col">{t("identity.decidedAt")}</th>
                </tr>
              </thead>
              <tbody>
                {history.map((item) => (
                  <tr key={item.submissionId}>
                    <td>{item.submissionId}</td>
                    <td>{t(`identity.tiers.${item.tier}`)}</td>
                    <td>{t(`identityStates.${item.state}`)}</td>
                    <td>{item.rejectReason ? t(`identity.reasons.${item.rejectReason}`) : "--"}</td>
                    <td>{item.operatorId ?? "--"}</td>
                    <td>{format.time(item.decidedAtMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </QueryView>
    </AdminPage>
  );
}
