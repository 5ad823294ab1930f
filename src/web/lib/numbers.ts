/**
 * Numbers and euro amounts as the radio's locale writes them (RADIO_LOCALE, en-IE: '1,234.5',
 * '€1,234.50', '-€5.00'), by hand rather than through Intl: a page's first Intl formatter loads the
 * locale's data, 20–50 ms of main thread on a laptop and several times that on a phone, in the very
 * task that first renders the page (docs/decisions/0022-first-load-of-gated-and-data-pages.md).
 * numbers.test.ts checks that every function agrees with Intl.NumberFormat('en-IE').
 */

/** Thousands separated by commas: '1234567' → '1,234,567'. */
function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `abs` (≥ 0) with exactly `digits` decimals, rounded half away from zero from its shortest decimal
 * form, as Intl rounds (2.675 → '2.68', where toFixed gives '2.67').
 */
function fixed(abs: number, digits: number): string {
  const plain = String(abs);
  // Exponent forms (≥ 1e21, < 1e-6) are beyond what a page shows; toFixed is close enough there.
  if (!/^\d+(\.\d+)?$/.test(plain)) return abs.toFixed(digits);
  const [int = '0', frac = ''] = plain.split('.');
  if (frac.length <= digits) return digits ? `${int}.${frac.padEnd(digits, '0')}` : int;
  let scaled = BigInt(int + frac.slice(0, digits));
  if (frac.charAt(digits) >= '5') scaled += 1n;
  const s = scaled.toString().padStart(digits + 1, '0');
  return digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
}

/** '1,234' or, with `maxFractionDigits`, '1,234.5' (no trailing zeros: 2 → '2'). */
export function formatNumber(value: number, maxFractionDigits = 0): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  let text = fixed(Math.abs(value), maxFractionDigits);
  if (text.includes('.')) text = text.replace(/\.?0+$/, '');
  const [int = '0', frac] = text.split('.');
  return `${value < 0 || Object.is(value, -0) ? '-' : ''}${group(int)}${frac ? `.${frac}` : ''}`;
}

/** '€24.99', '€1,234.50', '-€5.00'. */
export function formatEuro(amount: number): string {
  const [int = '0', cents] = fixed(Math.abs(amount), 2).split('.');
  return `${amount < 0 || Object.is(amount, -0) ? '-' : ''}€${group(int)}.${cents}`;
}

/** A price as the pricing shows it: whole euros without cents ('€10'), others as formatEuro ('€2.50'). */
export function formatPrice(amount: number): string {
  const text = formatEuro(amount);
  return text.endsWith('.00') ? text.slice(0, -3) : text;
}
