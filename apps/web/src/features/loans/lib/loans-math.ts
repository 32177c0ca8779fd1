/** `units` / 10^`decimals` as a plain decimal string, trailing zeros dropped. Integer arithmetic. */
function scaled(units: number, decimals: number): string {
  const negative = units < 0;
  const digits = String(Math.abs(Math.trunc(units))).padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "");
  return (negative ? "-" : "") + (fraction ? `${whole}.${fraction}` : whole);
}

/** Basis points as a percent: 6500 → "65", 3334 → "33.34". */
export function bpsToPercent(bps: number): string {
  return scaled(bps, 2);
}

/** Parts per million as a percent: 300 → "0.03", 1 → "0.0001". */
export function ppmToPercent(ppm: number): string {
  return scaled(ppm, 4);
}

/** How many decimals a plain decimal string has: "0.03" → 2, "65" → 0. */
export function decimalsOf(value: string): number {
  const point = value.indexOf(".");
  return point < 0 ? 0 : value.length - point - 1;
}
