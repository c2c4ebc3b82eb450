/**
 * The index's calls checked at run time (src/arguments.ts): what the on-disk
 * index, the in-memory one and a saved snapshot take, refused with a message
 * naming the call before any work or lock. Browser-safe.
 */
import { checkChoice, checkDocuments, checkOptions, checkStrings } from '../arguments.js';
import { INDEX_OPTIONS } from './options.js';

/** How an index is opened (OpenOptions). */
export const OPEN_OPTIONS = ['backend', 'threads', 'readOnly', 'expect', 'checksums'] as const;

/** openIndex's (or createIndex's, with the index options) options: known names, each value checked. */
export function checkOpenArguments(dir: unknown, options: unknown, what: 'openIndex' | 'createIndex'): void {
  if (typeof dir !== 'string' || dir === '')
    throw new TypeError(`${what}: expected a directory path, got ${dir === '' ? 'an empty string' : typeof dir}`);
  checkOptions(options, what === 'openIndex' ? OPEN_OPTIONS : [...INDEX_OPTIONS, ...OPEN_OPTIONS], what);
  const given = (options ?? {}) as Record<string, unknown>;
  checkChoice(given.readOnly, 'readOnly', [true, false]);
  checkChoice(given.checksums, 'checksums', ['open', 'lazy', 'auto']);
  if (given.expect !== undefined) checkOptions(given.expect, INDEX_OPTIONS, `${what}: expect`);
}

export function checkQueryArguments(texts: unknown, options: unknown): void {
  checkStrings(texts, 'query', 'texts');
  checkOptions(options, ['top', 'containment', 'rerank'], 'query');
}

export function checkAddArguments(documents: unknown, options: unknown): void {
  checkDocuments(documents, 'add', false);
  checkOptions(options, ['all'], 'add');
  checkChoice((options as { all?: unknown } | undefined)?.all, 'all', [true, false]);
}

export function checkRemoveArguments(ids: unknown): void {
  checkStrings(ids, 'remove', 'ids');
}
