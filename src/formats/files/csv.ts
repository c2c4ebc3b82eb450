/** CSV cells (RFC 4180), without Node imports so the browser app writes the same CSV as the CLI. */

export type Cell = string | number | boolean | null;

/** Quotes a cell holding a comma, quote or line break, doubling its quotes; null is the empty cell. */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value); // numbers and booleans never need quotes
  const text = value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
