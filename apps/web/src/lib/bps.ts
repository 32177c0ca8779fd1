/** Basis points as a decimal string of percent, by integer digits only (2500 → "25"). */
export function bpsToPercent(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const cents = String(bps % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return cents === "" ? String(whole) : `${whole}.${cents}`;
}
