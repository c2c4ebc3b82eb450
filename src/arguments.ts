/**
 * The library's arguments checked at run time, as the CLI checks its flags:
 * a JavaScript caller has no compiler between it and us, and a string where
 * an array is due would otherwise be iterated (`remove('doc')` removing `d`,
 * `o` and `c`). Each check throws a TypeError naming the function and the
 * argument. Browser-safe: no `node:` import.
 */
import { checkKnownOptions, checkTableOptions } from './options.js';

const kind = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
        : typeof value;

/** An array, never a string or another iterable. */
export function checkArray(value: unknown, what: string, of: string): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) throw new TypeError(`${what}: expected an array of ${of}, got ${kind(value)}`);
}

/** An array of strings (texts to sign or query, ids to remove). */
export function checkStrings(value: unknown, what: string, of: 'texts' | 'ids'): asserts value is readonly string[] {
  checkArray(value, what, of);
  value.forEach((item, i) => {
    if (typeof item !== 'string')
      throw new TypeError(`${what}: ${of === 'texts' ? 'text' : 'id'} ${i + 1} is not a string (got ${kind(item)})`);
  });
}

/**
 * An array of documents: `{ id: string, text: string }` each (other fields allowed), or a plain string where `strings`.
 */
export function checkDocuments(value: unknown, what: string, strings: boolean): void {
  const expected = `${strings ? 'a string or ' : ''}{ id: string, text: string }`;
  checkArray(value, what, 'documents');
  value.forEach((item, i) => {
    if (strings && typeof item === 'string') return;
    const doc = item as { id?: unknown; text?: unknown } | null;
    if (
      doc === null ||
      typeof doc !== 'object' ||
      Array.isArray(doc) ||
      typeof doc.id !== 'string' ||
      typeof doc.text !== 'string'
    ) {
      const object = doc !== null && typeof doc === 'object' && !Array.isArray(doc);
      throw new TypeError(
        `${what}: document ${i + 1} must be ${expected}, got ` +
          `${object ? `{ ${Object.keys(doc).join(', ')} }${fieldProblem(doc)}` : kind(doc)}`,
      );
    }
  });
}

/** Which of a document's fields is wrong, and how: "(its id is the number 7: ids are strings, give String(id))". */
function fieldProblem(doc: { id?: unknown; text?: unknown }): string {
  const field = typeof doc.id !== 'string' ? 'id' : 'text';
  const value = doc[field];
  if (value === undefined) return ` (it has no ${field})`;
  const shown = typeof value === 'number' || typeof value === 'bigint' ? `the number ${String(value)}` : kind(value);
  const hint = field === 'id' && shown.startsWith('the number') ? ': ids are strings, give String(id)' : '';
  return ` (its ${field} is ${shown}${hint})`;
}

/** An options argument: undefined or a plain object; its keys among `known`, the table's values checked. */
export function checkOptions<T>(options: T, known: readonly string[], what: string): T {
  if (options === undefined) return options;
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw new TypeError(`${what}: expected an options object, got ${kind(options)}`);
  checkKnownOptions(options, known, what);
  checkTableOptions(options);
  return options;
}

/** An option outside the table: one of `choices` (true or false for a flag). */
export function checkChoice(value: unknown, name: string, choices: readonly unknown[]): void {
  if (value !== undefined && !choices.includes(value)) {
    throw new RangeError(
      `${name} must be ${choices.map((c) => (typeof c === 'string' ? c : String(c))).join(' or ')}, got ` +
        `${typeof value === 'string' ? JSON.stringify(value) : String(value)}`,
    );
  }
}
