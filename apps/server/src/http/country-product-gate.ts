import type { ProductAvailability, SwitchableProduct } from "@candor/contract";
import { AppError } from "./app-error.ts";

/** Per product, the countries of residence it is not offered in (COUNTRY_PRODUCT_BLOCKS). */
export type CountryProductBlocks = Partial<Record<SwitchableProduct, readonly string[]>>;

const products: readonly SwitchableProduct[] = ["perp", "seconds", "stocks", "savings", "loans"];

/**
 * Reads `COUNTRY_PRODUCT_BLOCKS`: `product:CC,CC;product:CC`, e.g. `perp:US,GB;seconds:US`
 * (products: perp, seconds, stocks, savings, loans; ISO 3166-1 alpha-2 codes).
 */
export function parseCountryProductBlocks(value: string | undefined): CountryProductBlocks {
  const blocks: Partial<Record<SwitchableProduct, string[]>> = {};
  if (!value) return blocks;
  for (const entry of value.split(";")) {
    const [product, countries = ""] = entry.split(":");
    if (!products.includes(product as SwitchableProduct)) {
      throw new Error(`unknown product ${JSON.stringify(product)}`);
    }
    const list = (blocks[product as SwitchableProduct] ??= []);
    list.push(...countries.split(","));
  }
  return blocks;
}

/** What a product module asks before opening something (see `CountryProductGate.check`). */
export interface ProductCountryCheck {
  check(userId: bigint, product: SwitchableProduct): Promise<void>;
}

export interface CountryProductGateOptions {
  /**
   * The switches at start: COUNTRY_PRODUCT_BLOCKS, until the back office's table (migration
   * 0030) is loaded with `setBlocks`.
   */
  blocks: CountryProductBlocks;
  /** Products this deployment switched off for everyone (PERP_ENABLED=false, …). */
  deploymentOff?: readonly SwitchableProduct[];
  /** The user's country of residence; null while none is chosen. */
  countryOf: (userId: bigint) => Promise<string | null>;
}

/**
 * The one server guard of the per-country product switches (DESIGN §1.7, issue 17). The
 * opening endpoints of each product call `check` (placing a perpetual order that is not
 * reduce-only, buying a seconds contract or a stock, subscribing to savings, applying for a
 * loan); closing, reducing, repaying and redeeming never do, so nobody is locked into a position
 * when a product is switched off for their country. A product blocked anywhere is open only
 * to users who have chosen a country. Demo mode follows the same rules: the product is not
 * offered in that country at all.
 */
export class CountryProductGate implements ProductCountryCheck {
  private blocks: CountryProductBlocks;

  constructor(private readonly options: CountryProductGateOptions) {
    this.blocks = options.blocks;
  }

  /**
   * Replaces the switches held in memory (the request path reads memory, not the database):
   * at start from the table, and after each operator change. See modules/product-config.
   */
  setBlocks(blocks: CountryProductBlocks): void {
    this.blocks = blocks;
  }

  /** Whether this deployment switched `product` off for everyone (PERP_ENABLED=false, …). */
  deploymentOff(product: SwitchableProduct): boolean {
    return this.options.deploymentOff?.includes(product) ?? false;
  }

  /** The switches in force, product → countries. */
  currentBlocks(): CountryProductBlocks {
    return this.blocks;
  }

  /** Throws `product_unavailable_in_country` or `country_required` when `product` is closed. */
  async check(userId: bigint, product: SwitchableProduct): Promise<void> {
    const blocked = this.blocks[product];
    if (!blocked || blocked.length === 0) return;
    const reason = this.reasonFor(product, await this.options.countryOf(userId));
    if (reason === "country") throw new AppError("product_unavailable_in_country");
    if (reason === "country_required") throw new AppError("country_required");
  }

  /** What the web shows: every product, open or why not. */
  async availability(
    userId: bigint,
  ): Promise<{ country: string | null; products: ProductAvailability[] }> {
    const country = await this.options.countryOf(userId);
    return {
      country,
      products: products.map((product) => {
        const reason = this.deploymentOff(product)
          ? "deployment"
          : this.reasonFor(product, country);
        return { product, available: reason === null, reason };
      }),
    };
  }

  private reasonFor(product: SwitchableProduct, country: string | null) {
    const blocked = this.blocks[product];
    if (!blocked || blocked.length === 0) return null;
    if (country === null) return "country_required" as const;
    return blocked.includes(country) ? ("country" as const) : null;
  }
}
