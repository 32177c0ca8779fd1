import type { EndpointSpec } from "@candor/contract";
import type { FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The user an operator request touched, set by the route handler (or its service) so the
     * audit entry names them and the action appears in the user's own history.
     */
    auditUserId: string | null;
  }
  interface FastifyInstance {
    /** Writes the audit entry of a successful mutating operator request (issue 17). */
    operatorAudit?: (entry: OperatorAuditInput) => Promise<void>;
  }
}

/** The operator id recorded for the bootstrap token (OPERATOR_TOKEN), before named operators. */
export const bootstrapOperatorLabel = "bootstrap";

/**
 * The operator of a request as journaled commands and records name them: the named operator's
 * id, or `bootstrap` for the bootstrap token.
 */
export function operatorIdOf(request: FastifyRequest): string {
  return request.operatorAccount?.id ?? bootstrapOperatorLabel;
}

/** Notes the user an operator request touches (for the audit entry and the user's history). */
export function touchesUser(request: FastifyRequest, userId: string | bigint): void {
  request.auditUserId = String(userId);
}

/** What the audit hook records of one operator request. */
export interface OperatorAuditInput {
  /** The named operator; null for the bootstrap token. */
  operatorId: string | null;
  /** `METHOD path` as the contract spells it. */
  action: string;
  reason: string;
  userId: string | null;
  detail: string;
}

// Never copied into the audit log: secrets and long texts.
const redactedKeys = /password|secret|code|token|texts/i;
const detailCharsMax = 1_000;

/**
 * The audit entry of a successful mutating operator request: the reason from the body
 * (identity rejections: the listed reason and its text), the ids of the path and the other
 * body fields (secrets left out), and the user the handler said it touched.
 */
export function auditEntryOf(
  request: FastifyRequest,
  endpoint: EndpointSpec,
  params: unknown,
  body: unknown,
): OperatorAuditInput {
  const fields = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const reasonText =
    typeof fields.reason === "string"
      ? typeof fields.text === "string" && fields.text.length > 0
        ? `${fields.reason}: ${fields.text}`
        : fields.reason
      : endpoint.path.endsWith("/bootstrap")
        ? "first admin"
        : endpoint.path.endsWith("/sign-out")
          ? "sign-out"
          : // A multipart upload has no reason field; the banner that shows it gives one.
            endpoint.path === "/api/v1/operator/uploads"
            ? "banner image upload"
            : "";
  const shown: Record<string, unknown> = {};
  if (params && typeof params === "object") Object.assign(shown, params);
  for (const [key, value] of Object.entries(fields)) {
    if (key === "reason" || redactedKeys.test(key)) continue;
    shown[key] = value;
  }
  const detail = Object.keys(shown).length === 0 ? "" : JSON.stringify(shown);
  return {
    operatorId: request.operatorAccount?.id ?? null,
    action: `${endpoint.method} ${endpoint.path}`,
    reason: reasonText,
    userId: request.auditUserId,
    detail: detail.length > detailCharsMax ? `${detail.slice(0, detailCharsMax - 1)}…` : detail,
  };
}
