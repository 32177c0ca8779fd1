import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";

/** Seconds before another code may be asked for. */
const resendSeconds = 60;

/** "Send code": asks the server to e-mail a code, then counts down before allowing a resend. */
export function EmailCodeButton({ send }: { send: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const [secondsLeft, setSecondsLeft] = useState(0);
  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);
  const onClick = async () => {
    try {
      await withLoading(send());
      showSuccess(t("auth.fields.codeSent"));
      setSecondsLeft(resendSeconds);
    } catch (error) {
      showError(error);
    }
  };
  return (
    <Button
      size="small"
      fill="outline"
      disabled={secondsLeft > 0}
      onClick={() => void onClick()}
      data-testid="send-code"
    >
      {secondsLeft > 0
        ? t("auth.fields.resendIn", { seconds: secondsLeft })
        : t("auth.fields.sendCode")}
    </Button>
  );
}
