import type { ProductAvailability } from "@candor/contract";

/** What a product's availability says, by reason; `country` is the country's name. */
export function availabilityText(
  t: (key: string, values?: Record<string, string>) => string,
  item: ProductAvailability,
  country: string,
): string {
  if (item.available) return t("residence.available");
  if (item.reason === "deployment") return t("residence.offDeployment");
  if (item.reason === "country_required") return t("residence.needsCountry");
  return t("residence.offCountry", { country });
}
