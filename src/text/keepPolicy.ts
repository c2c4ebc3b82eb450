/**
 * Which document of a cluster is kept: the one with the highest score, ties to
 * the earliest in input order.
 *
 * - first: every document scores 0, so the earliest wins.
 * - longest: the text length in UTF-16 code units.
 * - field:NAME: the numeric value of a JSONL field (a number, or a string that
 *   is a number); documents without one score −∞ and are kept only when no
 *   member of their cluster has one.
 */

export type KeepPolicy =
  | { readonly kind: 'first' }
  | { readonly kind: 'longest' }
  | { readonly kind: 'field'; readonly field: string };

export function parseKeepPolicy(text: string): KeepPolicy {
  if (text === 'first' || text === 'longest') return { kind: text };
  if (text.startsWith('field:') && text.length > 'field:'.length)
    return { kind: 'field', field: text.slice('field:'.length) };
  // the options table's message (src/options.ts)
  throw new RangeError(`keep must be first, longest or field:NAME, got ${JSON.stringify(text)}`);
}

export function describeKeepPolicy(policy: KeepPolicy): string {
  return policy.kind === 'field' ? `field:${policy.field}` : policy.kind;
}

export interface KeepScore {
  readonly score: number;
  /** field:NAME only: the document had no numeric value in that field. */
  readonly missing: boolean;
}

export function keepScore(policy: KeepPolicy, text: string, record: Record<string, unknown> | undefined): KeepScore {
  switch (policy.kind) {
    case 'first':
      return { score: 0, missing: false };
    case 'longest':
      return { score: text.length, missing: false };
    case 'field': {
      const value = numericValue(record?.[policy.field]);
      return value === undefined ? { score: -Infinity, missing: true } : { score: value, missing: false };
    }
  }
}

function numericValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'bigint') return Number(value); // Parquet INT64 columns
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** True when document a (score sa) is preferred over document b (score sb). */
export function isPreferred(sa: number, a: number, sb: number, b: number): boolean {
  return sa > sb || (sa === sb && a < b);
}
