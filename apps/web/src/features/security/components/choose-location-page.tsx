import { useQueryClient } from "@tanstack/react-query";
import { Button, Input } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { CountryPicker } from "../../../components/ui/country-picker.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { countryName, pendingCountry } from "../../../lib/countries.ts";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { useSession } from "../../../lib/session.ts";
import { residenceKeys, setCountry, useMe } from "../api/residence-api.ts";

/**
 * The spec's system page `/choose-location`: search a country by its name in the user's
 * language and pick it. Signed in, the pick sets the country of residence (a change asks for a
 * reason, kept in the history operators read); signed out, it is kept for the registration form.
 */
export function ChooseLocationPage() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  if (!session) {
    return (
      <section className="page" aria-labelledby="choose-location-title">
        <h1 id="choose-location-title">{t("residence.chooseTitle")}</h1>
        <p className="hint">{t("residence.chooseHint")}</p>
        <CountryPicker
          selected={pendingCountry.get()}
          onPick={(code) => {
            pendingCountry.set(code);
            void navigate("/register");
          }}
        />
      </section>
    );
  }
  return <SignedInChooser />;
}

function SignedInChooser() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const [picked, setPicked] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  if (me.isPending) return <LoadingState />;
  if (me.isError)
    return <ErrorState message={me.error.message} onRetry={() => void me.refetch()} />;
  const current = me.data.country;

  const save = async (code: string, why?: string) => {
    try {
      await withLoading(setCountry(code, why));
      await queryClient.invalidateQueries({ queryKey: residenceKeys.all });
      showSuccess(t("residence.saved"));
      void navigate("/open-location");
    } catch (error) {
      showError(error);
    }
  };
  const pick = (code: string) => {
    // The first choice is simply saved; a change asks why first.
    if (current === null) void save(code);
    else if (code !== current) setPicked(code);
  };

  return (
    <section className="page" aria-labelledby="choose-location-title">
      <h1 id="choose-location-title">{t("residence.chooseTitle")}</h1>
      <p className="hint" data-testid="current-country">
        {current
          ? t("residence.current", { country: countryName(current, i18n.language) })
          : t("residence.none")}
      </p>
      {picked ? (
        <form
          className="order-card"
          aria-label={t("residence.changeTitle")}
          onSubmit={(event) => {
            event.preventDefault();
            void save(picked, reason.trim());
          }}
        >
          <p>
            {t("residence.changeTo", {
              from: countryName(current ?? "", i18n.language),
              to: countryName(picked, i18n.language),
            })}
          </p>
          <label className="field">
            <span className="label">{t("residence.reason")}</span>
            <Input
              value={reason}
              onChange={setReason}
              maxLength={200}
              placeholder={t("residence.reasonHint")}
              aria-label={t("residence.reason")}
              data-testid="country-reason"
            />
          </label>
          <Button
            block
            color="primary"
            type="submit"
            disabled={!reason.trim()}
            data-testid="country-save"
          >
            {t("common.confirm")}
          </Button>
          <Button block fill="none" onClick={() => setPicked(null)}>
            {t("common.cancel")}
          </Button>
        </form>
      ) : (
        <CountryPicker selected={current} onPick={pick} />
      )}
    </section>
  );
}
