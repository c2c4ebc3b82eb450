/** The index's own errors: a caller (cli, serve) tells them apart by class. */
import { invalidIdReason } from '../text/wellFormed.js';

/** A segment or manifest failed its checksum or could not be parsed: names the file and what failed. */
export class CorruptIndexError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    // One line: a parser's message may quote the damaged text, line breaks and all.
    super(`corrupt index: ${file}: ${problem.replace(/\s*\n\s*/g, ' ')}`);
    this.name = 'CorruptIndexError';
  }
}

/** Opening an index (or adding documents) with other parameters: names each difference. */
export class IndexParameterError extends Error {
  constructor(
    readonly differences: readonly string[],
    what: string,
  ) {
    super(`${what}: ${differences.join('; ')}`);
    this.name = 'IndexParameterError';
  }
}

/**
 * What is wrong with an id of an add: empty, twice in the add, already live in the index, or not valid Unicode
 * (text/wellFormed.ts).
 */
export type IndexIdProblem = 'empty' | 'repeated' | 'indexed' | 'invalid';

/**
 * An add of which most ids are indexed already is most likely a run that
 * committed (perhaps stopped after its commit, before writing its outputs)
 * being run again: say so, and how many.
 */
function rerunHint(indexedOf: { readonly indexed: number; readonly of: number } | undefined): string {
  if (indexedOf === undefined || indexedOf.indexed * 2 <= indexedOf.of) return ''; // most of them, not half
  return (
    ` (${indexedOf.indexed} of the add's ${indexedOf.of} ids are in the index already: was this add run before? A run ` +
    `that committed ` +
    'is in the index even if it was stopped before writing its outputs; see gpudedup index stats)'
  );
}

/**
 * The index's refusal of an id of an add (before any work): a caller tells
 * it by class and `problem` (serve: 409 for an id already indexed; the CLI
 * names the file and line of `documents`), never by the message's words.
 * A RangeError, as the index threw before it had a class of its own.
 */
export class IndexIdError extends RangeError {
  constructor(
    readonly problem: IndexIdProblem,
    readonly id: string,
    /** The refused document's place in the add, from 1 (for 'repeated': the earlier one, then this one). */
    readonly documents: readonly number[],
    /**
     * For 'indexed': how many of the add's ids are in the index, and of how many (most: a run that committed, run
     * again).
     */
    readonly indexedOf?: { readonly indexed: number; readonly of: number },
  ) {
    const n = documents.at(-1);
    super(
      problem === 'empty'
        ? `document ${n} of the add has an empty id`
        : problem === 'invalid'
          ? `document ${n} of the add: its id ${invalidIdReason(id)}`
          : problem === 'repeated'
            ? `id "${id}" appears twice in this add (documents ${documents.join(' and ')}): ids are unique in an index`
            : `id "${id}" is already in the index (document ${n} of the add): ids are unique in an index; remove it ` +
              `first to replace it${rerunHint(indexedOf)}`,
    );
    this.name = 'IndexIdError';
  }

  /**
   * The message with each document named by `locate` (its 0-based place in the add: a caller's file:line) instead of
   * its place.
   */
  located(locate: (i: number) => string): string {
    const at = this.documents.map((d) => locate(d - 1));
    if (this.problem === 'empty') return `${at[0]}: the document has an empty id`;
    if (this.problem === 'invalid') return `${at[0]}: the id ${invalidIdReason(this.id)}`;
    if (this.problem === 'repeated')
      return `${at[1]}: id "${this.id}" appears twice in this add (also ${at[0]}): ids are unique in an index`;
    return (
      `${at[0]}: id "${this.id}" is already in the index: ids are unique in an index; remove it first to replace ` +
      `it${rerunHint(this.indexedOf)}`
    );
  }
}

/**
 * A directory that is not an index this gpudedup reads: no manifest, another
 * format or version, or a manifest missing a field. One line naming the
 * directory and what was found.
 */
export class IndexFormatError extends Error {
  constructor(
    readonly dir: string,
    message: string,
  ) {
    super(message);
    this.name = 'IndexFormatError';
  }
}
