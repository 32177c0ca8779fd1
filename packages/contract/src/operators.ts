import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";

/** One entry of the operator audit log (issue 17). */
export const AuditEntry = z.object({
  id: z.string(),
  /** The named operator; null for the bootstrap token. */
  operatorId: z.string().nullable(),
  action: z.string(),
  reason: z.string(),
  /** The affected user, when the action touched one. */
  userId: z.string().nullable(),
  detail: z.string(),
  at: z.string(),
});

export const operatorAuditLog = defineEndpoint({
  method: "GET",
  path: "/api/v1/operator/audit",
  summary: "The operator audit log, newest first (compliance and admin)",
  tag: "operator",
  auth: "operator",
  query: z.strictObject({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    userId: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
    operatorId: z
      .string()
      .regex(/^\d{1,18}$/)
      .optional(),
  }),
  response: z.object({ entries: z.array(AuditEntry) }),
});
