// The app's confirmation and prompt dialogs: antd-mobile's `Dialog.confirm` with the Confirm and
// Cancel buttons in the user's language, so a screen asks a question in one call.
import { Dialog, Input, type DialogConfirmProps } from "antd-mobile";
import i18n from "i18next";
import { runWithFeedback } from "./feedback.ts";

/** A question: its text, or the dialog's options (Confirm and Cancel are filled in). */
export type Question = string | (Omit<DialogConfirmProps, "cancelText"> & { confirmText?: string });

/** Asks `question` with Confirm and Cancel; true when confirmed. A text question also labels
 * the dialog for screen readers. */
export function confirm(question: Question): Promise<boolean> {
  const options = typeof question === "string" ? { content: question } : question;
  return Dialog.confirm({
    ...(typeof options.content === "string" ? { "aria-label": options.content } : {}),
    ...options,
    confirmText: options.confirmText ?? i18n.t("common.confirm"),
    cancelText: i18n.t("common.cancel"),
  });
}

/**
 * Asks `question`; when confirmed, runs `work` under the loading mask and says how it went
 * (`success`, as `runWithFeedback`). Tells the caller which of the three happened, so it can
 * refresh what changed.
 */
export async function confirmThenRun(
  question: Question,
  work: () => Promise<unknown>,
  success?: string | null,
): Promise<"dismissed" | "done" | "failed"> {
  if (!(await confirm(question))) return "dismissed";
  return (await runWithFeedback(work, success)) ? "done" : "failed";
}

/**
 * Asks for one value in a dialog (a new order size, say): `hint` above a field holding
 * `initial`. The typed text, trimmed, or null when the user cancels.
 */
export async function promptText(prompt: {
  title: string;
  hint: string;
  /** The field's accessible name. */
  label: string;
  initial: string;
  inputMode: "decimal" | "numeric";
  testId: string;
}): Promise<string | null> {
  let text = prompt.initial;
  const confirmed = await confirm({
    title: prompt.title,
    content: (
      <div>
        <p className="hint">{prompt.hint}</p>
        <Input
          className="boxed-input"
          inputMode={prompt.inputMode}
          defaultValue={prompt.initial}
          onChange={(value) => {
            text = value;
          }}
          aria-label={prompt.label}
          data-testid={prompt.testId}
        />
      </div>
    ),
  });
  return confirmed ? text.trim() : null;
}
