import type { SelfTradeMode } from "@candor/contract";
import { useTranslation } from "react-i18next";

const modes = ["cancel_resting", "cancel_incoming", "cancel_both"] as const;

/**
 * The self-trade-prevention choice of the spot and perpetual order forms, as radio buttons whose
 * labels wrap (a select clipped the longer translations in a half-width order form).
 */
export function SelfTradeModeField(props: {
  value: SelfTradeMode;
  onChange: (mode: SelfTradeMode) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="order-field stp-field" data-testid={props.testId}>
      <legend className="label">{t("coinCoin.form.stp.label")}</legend>
      {modes.map((mode) => (
        <label key={mode} className="stp-option">
          <input
            type="radio"
            name={props.testId}
            value={mode}
            checked={props.value === mode}
            onChange={() => props.onChange(mode)}
          />
          <span>{t(`coinCoin.form.stp.${mode}`)}</span>
        </label>
      ))}
    </fieldset>
  );
}
