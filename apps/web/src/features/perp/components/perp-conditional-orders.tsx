import type { PerpConditionalOrderView } from "@candor/contract";
import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";

/**
 * The session's waiting stop and take-profit orders on perpetuals: what fires them (the mark
 * reaching the trigger), the order they place, and a cancel button. Fired ones move to the
 * history with the tick that fired them. An OCO leg names the other leg, which ends with it.
 */
export function PerpConditionalOrders({
  items,
  onCancel,
}: {
  items: readonly PerpConditionalOrderView[];
  onCancel: (orderId: string) => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="perp-conditional-title" data-testid="perp-conditional-orders">
      <h2 id="perp-conditional-title">{t("perp.conditional.title")}</h2>
      {items.map((o) => (
        <article key={o.orderId} className="spot-card" data-testid="perp-conditional-order">
          <p>
            {o.marketId} · {t(`perp.orderSide.${o.side}`)} ·{" "}
            {t(`perp.orderType.${o.kind}_${o.orderType}`)} · {o.contracts}
            {o.reduceOnly ? ` · ${t("perp.form.reduceOnly")}` : ""}
          </p>
          <p>
            {t("perp.form.triggerPrice")}:{" "}
            <span data-testid="perp-conditional-trigger">{o.triggerPrice}</span>
            {o.price === null ? "" : ` · ${t("perp.form.price")}: ${o.price}`}
          </p>
          {o.ocoOrderId === null ? null : (
            <p data-testid="perp-conditional-oco">
              {t("perp.conditional.oco", { id: o.ocoOrderId })}
            </p>
          )}
          <Button
            size="small"
            onClick={() => onCancel(o.orderId)}
            data-testid="perp-conditional-cancel"
          >
            {t("perp.orders.cancel")}
          </Button>
        </article>
      ))}
    </section>
  );
}
