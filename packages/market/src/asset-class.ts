/** The five asset classes Candor lists, in the order the quotation tabs show them. */
export const assetClasses = ["crypto", "stock", "forex", "metal", "commodity"] as const;
export type AssetClass = (typeof assetClasses)[number];
