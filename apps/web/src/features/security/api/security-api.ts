import { useQuery } from "@tanstack/react-query";
import { callEndpoint } from "../../../lib/api-client.ts";
import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The security centre's and identity verification's endpoints (contract: security.ts, identity.ts, auth.ts). */
export const securityEndpoints = endpointTable({
  changePassword: { method: "POST", path: "/api/v1/me/password", auth: "user" },
  setTradePassword: { method: "PUT", path: "/api/v1/me/trade-password", auth: "user" },
  twoFactorStatusEndpoint: { method: "GET", path: "/api/v1/me/two-factor", auth: "user" },
  twoFactorEnrolEndpoint: { method: "POST", path: "/api/v1/me/two-factor/enrol", auth: "user" },
  twoFactorConfirmEndpoint: {
    method: "POST",
    path: "/api/v1/me/two-factor/confirm",
    auth: "user",
  },
  twoFactorDisableEndpoint: {
    method: "POST",
    path: "/api/v1/me/two-factor/disable",
    auth: "user",
  },
  listSessionsEndpoint: { method: "GET", path: "/api/v1/me/sessions", auth: "user" },
  revokeSessionEndpoint: {
    method: "DELETE",
    path: "/api/v1/me/sessions/:sessionId",
    auth: "user",
  },
  revokeOtherSessionsEndpoint: {
    method: "POST",
    path: "/api/v1/me/sessions/revoke-others",
    auth: "user",
  },
  uploadImageEndpoint: { method: "POST", path: "/api/v1/uploads", auth: "user" },
  myIdentityEndpoint: { method: "GET", path: "/api/v1/me/identity", auth: "user" },
  submitBasicIdentityEndpoint: { method: "POST", path: "/api/v1/me/identity/basic", auth: "user" },
  submitAdvancedIdentityEndpoint: {
    method: "POST",
    path: "/api/v1/me/identity/advanced",
    auth: "user",
  },
  deleteIdentityDocumentsEndpoint: {
    method: "DELETE",
    path: "/api/v1/me/identity/:submissionId/documents",
    auth: "user",
  },
});

export const securityKeys = {
  twoFactor: ["security", "two-factor"] as const,
  sessions: ["security", "sessions"] as const,
  identity: ["security", "identity"] as const,
};

export function useTwoFactorStatus() {
  return useQuery({
    queryKey: securityKeys.twoFactor,
    queryFn: () => callEndpoint(securityEndpoints.twoFactorStatusEndpoint),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: securityKeys.sessions,
    queryFn: () => callEndpoint(securityEndpoints.listSessionsEndpoint),
  });
}

export function useIdentity() {
  return useQuery({
    queryKey: securityKeys.identity,
    queryFn: () => callEndpoint(securityEndpoints.myIdentityEndpoint),
  });
}

export const changePassword = (currentPassword: string, password: string) =>
  callEndpoint(securityEndpoints.changePassword, {
    body: { currentPassword, password, passwordConfirm: password },
  });

export const setTradePassword = (tradePassword: string, currentTradePassword: string) =>
  callEndpoint(securityEndpoints.setTradePassword, {
    body: { tradePassword, tradePasswordConfirm: tradePassword, currentTradePassword },
  });

export const enrolTwoFactor = (password: string | undefined) =>
  callEndpoint(securityEndpoints.twoFactorEnrolEndpoint, {
    body: password ? { password } : {},
  });

export const confirmTwoFactor = (code: string) =>
  callEndpoint(securityEndpoints.twoFactorConfirmEndpoint, { body: { code } });

export const disableTwoFactor = (password: string | undefined, code: string) =>
  callEndpoint(securityEndpoints.twoFactorDisableEndpoint, {
    body: password ? { password, code } : { code },
  });

export const revokeSession = (sessionId: string) =>
  callEndpoint(securityEndpoints.revokeSessionEndpoint, { params: { sessionId } });

export const revokeOtherSessions = () =>
  callEndpoint(securityEndpoints.revokeOtherSessionsEndpoint, { body: {} });

export const submitBasicIdentity = (body: {
  country: string;
  realName: string;
  documentType: "id_card" | "driving_licence" | "passport";
  documentNumber: string;
}) => callEndpoint(securityEndpoints.submitBasicIdentityEndpoint, { body });

export const submitAdvancedIdentity = (body: {
  frontUploadId: string;
  backUploadId: string;
  selfieUploadId?: string;
}) => callEndpoint(securityEndpoints.submitAdvancedIdentityEndpoint, { body });

/** Deletes the photos of a decided submission; the decision stays. */
export const deleteIdentityDocuments = (submissionId: string) =>
  callEndpoint(securityEndpoints.deleteIdentityDocumentsEndpoint, { params: { submissionId } });

/** An identity document photo through the uploads pipeline (checked and re-encoded). */
export async function uploadIdentityImage(file: Blob) {
  const form = new FormData();
  form.append("file", file);
  const answer = await callEndpoint(securityEndpoints.uploadImageEndpoint, {
    query: { purpose: "identity_document" },
    form,
  });
  return answer.upload;
}
