import type { SwitchableProduct } from "@candor/contract";
import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import { countryName } from "../../../lib/countries.ts";
import { useSession } from "../../../lib/session.ts";
import { useProductAvailability } from "../api/residence-api.ts";
import { availabilityText } from "../lib/availability.ts";

/**
 * Above a product's page: why the user cannot open it here (their country of residence, or no
 * country chosen yet), with a link to the country page. Positions already open can still be
 * closed, and the page says so. Nothing is shown while the product is available.
 */
export function ProductCountryNotice({ product }: { product: SwitchableProduct }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const availability = useProductAvailability(session !== null);
  const item = availability.data?.products.find((p) => p.product === product);
  if (!item || item.available || item.reason === "deployment") return null;
  const country = availability.data?.country;
  return (
    <div className="page notice-banner" role="alert" data-testid={`product-blocked-${product}`}>
      <p>{availabilityText(t, item, country ? countryName(country, i18n.language) : "")}</p>
      <p className="hint">{t("residence.closingAllowed")}</p>
      <Link to="/open-location">{t("residence.title")}</Link>
    </div>
  );
}
