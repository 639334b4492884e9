/**
 * German number formatting for reason texts: decimal comma, at most
 * `decimals` fraction digits, no thousands separator.
 */
export function formatNumberDe(value: number, decimals = 1): string {
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  const normalised = Object.is(rounded, -0) ? 0 : rounded;
  return String(normalised).replace('.', ',');
}

/** Rounds for meta values (JSON numbers, not text). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}
