import { useQuery } from "@tanstack/react-query";
import { callEndpoint } from "../../../lib/api-client.ts";
import { endpointTable } from "../../../lib/api-endpoints.ts";

/** Country of residence, product availability, anti-phishing code, sign-in history, avatar. */
export const residenceEndpoints = endpointTable({
  getMe: { method: "GET", path: "/api/v1/me", auth: "user" },
  updateMe: { method: "PATCH", path: "/api/v1/me", auth: "user" },
  setCountryEndpoint: { method: "PUT", path: "/api/v1/me/country", auth: "user" },
  productAvailabilityEndpoint: { method: "GET", path: "/api/v1/me/products", auth: "user" },
  setAntiPhishingEndpoint: { method: "PUT", path: "/api/v1/me/anti-phishing", auth: "user" },
  signInHistoryEndpoint: { method: "GET", path: "/api/v1/me/sign-ins", auth: "user" },
  accountHistory: { method: "GET", path: "/api/v1/me/account-history", auth: "user" },
  uploadImageEndpoint: { method: "POST", path: "/api/v1/uploads", auth: "user" },
});

export const residenceKeys = {
  all: ["residence"] as const,
  me: ["residence", "me"] as const,
  products: ["residence", "products"] as const,
  signIns: ["residence", "sign-ins"] as const,
  accountHistory: ["residence", "account-history"] as const,
};

export function useMe(enabled = true) {
  return useQuery({
    queryKey: residenceKeys.me,
    queryFn: () => callEndpoint(residenceEndpoints.getMe),
    enabled,
  });
}

export function useProductAvailability(enabled = true) {
  return useQuery({
    queryKey: residenceKeys.products,
    queryFn: () => callEndpoint(residenceEndpoints.productAvailabilityEndpoint),
    enabled,
  });
}

export function useSignIns() {
  return useQuery({
    queryKey: residenceKeys.signIns,
    queryFn: () => callEndpoint(residenceEndpoints.signInHistoryEndpoint),
  });
}

/** What operators did to the user's account (issue 17): what, why, who, when. */
export function useAccountHistory() {
  return useQuery({
    queryKey: residenceKeys.accountHistory,
    queryFn: () => callEndpoint(residenceEndpoints.accountHistory, { query: { limit: 200 } }),
  });
}

export const setCountry = (country: string, reason?: string) =>
  callEndpoint(residenceEndpoints.setCountryEndpoint, {
    body: reason ? { country, reason } : { country },
  });

export const setAntiPhishingCode = (
  code: string | null,
  proof: { tradePassword: string } | { totpCode: string },
) => callEndpoint(residenceEndpoints.setAntiPhishingEndpoint, { body: { code, ...proof } });

/** An avatar image through the uploads pipeline, then set as the user's avatar. */
export async function uploadAvatar(file: Blob) {
  const form = new FormData();
  form.append("file", file);
  const answer = await callEndpoint(residenceEndpoints.uploadImageEndpoint, {
    query: { purpose: "avatar" },
    form,
  });
  return callEndpoint(residenceEndpoints.updateMe, {
    body: { avatarUploadId: answer.upload.uploadId },
  });
}
