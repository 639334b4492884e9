/** Below this many units of the last decimal a number is written from integers (exact, see formatNumberDe). */
const FAST_LIMIT = 1e9;
/** 10^d for the usual decimals, looked up instead of computed (`10 ** d` with a variable d is a call to Math.pow). */
const POWERS_OF_TEN: readonly number[] = [1, 10, 100, 1000, 10_000];

function powerOfTen(decimals: number): number {
  return POWERS_OF_TEN[decimals] ?? 10 ** decimals;
}

/**
 * German number formatting for reason texts: decimal comma, at most
 * `decimals` fraction digits, no thousands separator.
 *
 * Written as `String(Math.round(value·10^d)/10^d)` with the point replaced by a comma. For
 * 0 ≤ d ≤ 3 and |k| = |round(value·10^d)| < 10⁹ the quotient has at most 12 significant digits, so
 * its shortest round-trip form (what String writes) is exactly the decimal k/10^d without trailing
 * zeros; that is built here from the integers, since a double's String costs more than the rest of
 * a reason. Anything else (NaN, huge values, more decimals) takes the String path.
 */
export function formatNumberDe(value: number, decimals = 1): string {
  const factor = powerOfTen(decimals);
  const units = Math.round(value * factor);
  if (units > -FAST_LIMIT && units < FAST_LIMIT && decimals >= 0 && decimals <= 3 && Number.isInteger(decimals)) {
    return units < 0 ? `-${fromUnits(-units, factor)}` : fromUnits(units, factor); // -0 and 0 both give "0"
  }
  const rounded = units / factor;
  const normalised = Object.is(rounded, -0) ? 0 : rounded;
  return String(normalised).replace('.', ',');
}

/** The digits after the comma of `fraction / factor` (0 < fraction < factor): zero-padded, without trailing zeros. */
function fractionDigits(fraction: number, factor: number): string {
  let width = factor === 10 ? 1 : factor === 100 ? 2 : 3;
  while (fraction % 10 === 0) {
    fraction /= 10;
    width--;
  }
  return `${fraction}`.padStart(width, '0');
}

/** fractionDigits of every fraction of 1, 2 and 3 decimals, built once (about 1,100 short strings). */
function fractionTable(factor: number): readonly string[] {
  return Array.from({ length: factor }, (_, fraction) => (fraction === 0 ? '' : fractionDigits(fraction, factor)));
}
const TENTHS = fractionTable(10);
const HUNDREDTHS = fractionTable(100);
const THOUSANDTHS = fractionTable(1000);

/** `units / factor` (units a non-negative integer below 10⁹, factor 1, 10, 100 or 1000) with a decimal comma. */
function fromUnits(units: number, factor: number): string {
  const whole = Math.floor(units / factor);
  const fraction = units - whole * factor;
  if (fraction === 0) return `${whole}`;
  const digits = factor === 10 ? TENTHS[fraction] : factor === 100 ? HUNDREDTHS[fraction] : THOUSANDTHS[fraction];
  return `${whole},${digits ?? fractionDigits(fraction, factor)}`;
}

/** Rounds for meta values (JSON numbers, not text). */
export function roundTo(value: number, decimals: number): number {
  const factor = powerOfTen(decimals);
  const rounded = Math.round(value * factor) / factor;
  return rounded === 0 ? 0 : rounded; // -0 becomes 0
}
