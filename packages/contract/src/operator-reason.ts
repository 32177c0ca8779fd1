import { z } from "zod";

/**
 * Every operator action carries a reason a reviewer can read (issue 17): 3–500 characters after
 * trimming. It goes to the audit log with the operator's id, and to the affected user's history.
 */
export const OperatorReason = z.string().trim().min(3).max(500);
