/**
 * PHH amounts may be decimal (1259450.25). Felt keeps money as integers, so a hand's amounts are
 * scaled by ten to the power of the most decimals among the amounts that describe its game (its
 * unit), and written back exactly.
 */

/** The number of decimals a finite number needs when written in its shortest exact form. */
export function decimalsOf(value: number): number {
  const text = plainText(value);
  if (text === null) return 0;
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** The shortest round-trip text of a number without an exponent, or null when it needs one. */
function plainText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(Math.abs(value));
  return /e/i.test(text) ? null : text;
}

/** The number times 10^scale as an exact integer, or null if that is not a safe integer. */
export function toScaled(value: number, scale: number): number | null {
  const text = plainText(value);
  if (text === null) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  if (fraction.length > scale) return null;
  const digits = `${whole}${fraction.padEnd(scale, '0')}`.replace(/^0+(?=\d)/, '');
  const scaled = Number(digits);
  if (!Number.isSafeInteger(scaled) || String(scaled) !== digits) return null;
  return value < 0 ? -scaled : scaled;
}

/** Parses a decimal literal such as `3000` or `1259450.25` into its digits and decimals. */
export function parseDecimalText(text: string): { readonly value: number; readonly decimals: number } | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  const value = Number(`${match[1] ?? '0'}.${fraction === '' ? '0' : fraction}`);
  return Number.isFinite(value) ? { value, decimals: fraction.length } : null;
}

/** The exact decimal text of a scaled integer: 193792375 at scale 2 is `1937923.75`; trailing zeros dropped. */
export function formatScaled(scaled: number, scale: number): string {
  const negative = scaled < 0;
  const digits = String(Math.abs(scaled)).padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
