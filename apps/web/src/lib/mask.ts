/** Strings longer than this are masked (spec §5). */
export const maskLengthMin = 7;

/**
 * Masks the middle of a string longer than 6 characters, keeping the first and last 3:
 * "0x12ab34cd" becomes "0x1***4cd". Shorter strings are shown whole. Counts characters,
 * not UTF-16 units, so an emoji is never cut in half.
 */
export function maskMiddle(value: string, mask = "***"): string {
  const characters = Array.from(value);
  if (characters.length < maskLengthMin) return value;
  return `${characters.slice(0, 3).join("")}${mask}${characters.slice(-3).join("")}`;
}
