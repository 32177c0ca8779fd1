import { Input } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { authKeys, fetchCaptcha } from "../api/auth-api.ts";

/**
 * The captcha fields of a request: none when no answer was typed (the server runs without
 * captchas, or the user left it empty and the server will say `captcha_required`).
 */
export function captchaFields(
  captchaId: string,
  answer: unknown,
): { captchaId?: string; captchaAnswer?: string } {
  const text = typeof answer === "string" ? answer.trim() : "";
  return text ? { captchaId, captchaAnswer: text } : {};
}

/**
 * Whether the server asks for captchas (false under CAPTCHA=off), once `CaptchaField` loaded
 * one; undefined before. Reads the field's query, never fetches a captcha of its own.
 */
export function useCaptchaRequired(): boolean | undefined {
  const captcha = useQuery({
    queryKey: authKeys.captcha(),
    queryFn: fetchCaptcha,
    enabled: false,
    staleTime: Infinity,
  });
  return captcha.data?.required;
}

/** A captcha image with its answer field; a tap on the image loads a new one. */
export function CaptchaField({
  value,
  onChange,
  onCaptchaId,
}: {
  value?: string;
  onChange?: (value: string) => void;
  onCaptchaId: (captchaId: string) => void;
}) {
  const { t } = useTranslation();
  const captcha = useQuery({
    queryKey: authKeys.captcha(),
    queryFn: async () => {
      const data = await fetchCaptcha();
      onCaptchaId(data.captchaId);
      return data;
    },
    staleTime: Infinity,
    retry: false,
  });
  if (captcha.data?.required === false) return null;
  return (
    <div className="captcha-row">
      <Input
        value={value ?? ""}
        onChange={onChange}
        aria-label={t("auth.fields.captcha")}
        maxLength={12}
      />
      <button
        type="button"
        className="captcha-image"
        onClick={() => void captcha.refetch()}
        title={t("auth.fields.captchaRefresh")}
      >
        {captcha.data ? (
          <img
            alt={t("auth.fields.captchaRefresh")}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(captcha.data.svg)}`}
          />
        ) : (
          <span data-testid="captcha-unavailable">
            {captcha.isError ? captcha.error.message : t("common.loading")}
          </span>
        )}
      </button>
    </div>
  );
}
