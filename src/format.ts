/** How messages write numbers and lists: one place, so every line reads the same. */

/** "86,246": an integer with thousands separators. */
export function thousands(n: number | bigint): string {
  return n.toLocaleString('en-US');
}

/** "1,234.5": a number with `digits` decimals and thousands separators. */
export function fixed(n: number, digits: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** "1 document", "2,048 documents": a count with its noun, in the plural unless it is one. */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${thousands(n)} ${n === 1 ? noun : plural}`;
}

/**
 * Six decimals, as every table and report writes a similarity: enough for k up to 10^6, and the same text on every
 * platform.
 */
export function sixDecimals(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** The first few names of a list, and how many more. */
export function namesOf(names: readonly string[], shown = 5): string {
  return names.slice(0, shown).join(', ') + (names.length > shown ? `, and ${names.length - shown} more` : '');
}
