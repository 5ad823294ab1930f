import { formatEuro } from '../../../lib/numbers';

/** '€5.00' for 500: pledge amounts are stored in euro cents and shown in euros. */
export function formatEuros(cents: number): string {
  return formatEuro(cents / 100);
}

/** '5.00' for 500: the value an amount field starts with. */
export function centsToEurosInput(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** An amount field's euros as a decimal number; empty (or unreadable) is 0. */
export function eurosFromInput(input: string): number {
  const n = Number.parseFloat(input.replace(',', '.'));
  return Number.isFinite(n) ? n : 0;
}

/** An amount field's euros as whole cents (the edit form stores cents). */
export function centsFromInput(input: string): number {
  return Math.round(eurosFromInput(input) * 100);
}

/** Expiry days as an integer; empty is 0, which means no expiry. */
export function daysFromInput(input: string): number {
  const n = Number.parseInt(input, 10);
  return Number.isFinite(n) ? n : 0;
}
