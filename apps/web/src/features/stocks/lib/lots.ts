/**
 * Shares for a number of lots, from the texts as typed: whole lots only, computed on bigints
 * (never floats). Undefined when the lots are not a positive whole number.
 */
export function sharesOf(lots: string, lotSize: string): string | undefined {
  const text = lots.trim();
  if (!/^[1-9]\d{0,8}$/.test(text) || !/^[1-9]\d*$/.test(lotSize)) return undefined;
  return (BigInt(text) * BigInt(lotSize)).toString();
}

/** A sign for a decimal string: "up", "down" or "flat" (text only, no numbers). */
export function signOf(value: string | null | undefined): "up" | "down" | "flat" {
  if (!value || /^-?0(\.0*)?$/.test(value)) return "flat";
  return value.startsWith("-") ? "down" : "up";
}
