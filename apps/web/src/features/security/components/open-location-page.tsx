import { Button, List } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { countryName } from "../../../lib/countries.ts";
import { useProductAvailability } from "../api/residence-api.ts";
import { availabilityText } from "../lib/availability.ts";

/**
 * The spec's system page `/open-location`: the country of residence, which products it opens
 * and the per-country disclosure, with a way to change the country (`/choose-location`).
 */
export function OpenLocationPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const availability = useProductAvailability();
  if (availability.isPending) return <LoadingState />;
  if (availability.isError) {
    return (
      <ErrorState
        message={availability.error.message}
        onRetry={() => void availability.refetch()}
      />
    );
  }
  const { country, products } = availability.data;
  const name = country ? countryName(country, i18n.language) : "";
  return (
    <section className="page" aria-labelledby="open-location-title">
      <h1 id="open-location-title">{t("residence.title")}</h1>
      <p data-testid="residence-country">
        {country ? t("residence.current", { country: name }) : t("residence.none")}
      </p>
      <Button
        color="primary"
        size="small"
        onClick={() => void navigate("/choose-location")}
        data-testid="residence-change"
      >
        {country ? t("residence.change") : t("residence.choose")}
      </Button>
      <h2>{t("residence.productsTitle")}</h2>
      <List>
        {products.map((item) => (
          <List.Item
            key={item.product}
            data-testid={`availability-${item.product}`}
            description={availabilityText(t, item, name)}
          >
            {t(`residence.product.${item.product}`)}
          </List.Item>
        ))}
      </List>
      <p className="hint" data-testid="residence-disclosure">
        {t("residence.disclosure")}
      </p>
    </section>
  );
}
