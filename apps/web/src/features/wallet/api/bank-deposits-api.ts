import type { UploadView } from "@candor/contract";
import { useQuery } from "@tanstack/react-query";
import { callEndpoint } from "../../../lib/api-client.ts";
import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints of bank deposits and uploads (contract: bank-deposits.ts). */
export const bankDepositEndpoints = endpointTable({
  bankDepositOptionsEndpoint: {
    method: "GET",
    path: "/api/v1/bank-deposits/options",
    auth: "user",
  },
  createBankDepositEndpoint: { method: "POST", path: "/api/v1/bank-deposits", auth: "user" },
  listBankDepositsEndpoint: { method: "GET", path: "/api/v1/bank-deposits", auth: "user" },
  uploadImageEndpoint: { method: "POST", path: "/api/v1/uploads", auth: "user" },
  uploadFileEndpoint: { method: "GET", path: "/api/v1/uploads/:uploadId", auth: "user" },
});

export const bankDepositKeys = {
  options: ["wallet", "bank-deposits", "options"] as const,
  list: ["wallet", "bank-deposits", "list"] as const,
};

export function useBankDepositOptions() {
  return useQuery({
    queryKey: bankDepositKeys.options,
    queryFn: () => callEndpoint(bankDepositEndpoints.bankDepositOptionsEndpoint),
  });
}

export function useBankDeposits() {
  return useQuery({
    queryKey: bankDepositKeys.list,
    queryFn: () => callEndpoint(bankDepositEndpoints.listBankDepositsEndpoint),
  });
}

export function createBankDeposit(input: {
  assetId: string;
  amount: string;
  proofUploadId: string;
}) {
  return callEndpoint(bankDepositEndpoints.createBankDepositEndpoint, { body: input });
}

/** Where the user's own upload is shown (the server checks it is theirs). */
export function uploadUrl(uploadId: string): string {
  return `/api/v1/uploads/${encodeURIComponent(uploadId)}`;
}

/** POST /api/v1/uploads as multipart/form-data (the server checks and re-encodes the image). */
export async function uploadImage(
  file: Blob,
  purpose: "bank_deposit_proof" | "identity_document",
): Promise<UploadView> {
  const form = new FormData();
  form.append("file", file);
  const answer = await callEndpoint(bankDepositEndpoints.uploadImageEndpoint, {
    query: { purpose },
    form,
  });
  return answer.upload;
}
