/**
 * Every document's id must be unique, or a clusters table and a signature
 * sidecar cannot be joined back to the corpus. The one rule for the CLI's
 * first pass, the tab and the library's in-memory documents: the first
 * document with an id wins, a repeat is refused naming both places (the same
 * id twice, a line-number id `2` meeting a real `"id": 2`, or one file given
 * twice). Ids are keyed by a 128-bit hash (the exact pre-pass's table), plus
 * 8 bytes per id for where it was first seen. No Node imports.
 */
import { InputError, type InputDocument } from '../io/documents.js';
import { ExactDuplicateIndex } from './exactDuplicates.js';

/** A place is path number × 2^32 + line (exact below 2^53: 2 M files). */
const LINES = 2 ** 32;

export class UniqueIds {
  private readonly index = new ExactDuplicateIndex();
  private places = new Float64Array(1024);
  private readonly paths: string[] = [];
  private readonly pathNumber = new Map<string, number>();
  /** The last path added and its number (a file's documents come one after another). */
  private lastPath: string | undefined;
  private lastNumber = 0;

  /** Bytes of its hash table and places (the paths aside, a few per file). */
  get bytes(): number {
    return this.index.bytes + this.places.byteLength;
  }

  /**
   * Records an id seen at `path:line` (line 0: a whole file), or throws an
   * InputError naming both places. `keys`: the id already hashed (a first-pass
   * worker), its 128-bit key at words [at, at + 4); `id` may then be given as
   * a function, called only for the message.
   */
  add(id: string | (() => string), path: string, line: number, keys?: Uint32Array, at = 0): void {
    const p = path === this.lastPath ? this.lastNumber : this.numberOf(path);
    const first = this.placeOf(keys === undefined ? idText(id) : undefined, p * LINES + line, keys, at);
    if (first === undefined) return;
    const firstPath = this.paths[Math.floor(first / LINES)];
    const firstLine = first % LINES;
    const where = firstLine > 0 ? `${firstPath}:${firstLine}` : firstPath;
    throw new InputError(
      path,
      line,
      `${repeatedIdMessage(idText(id), where)} (is a file given twice, or does a line-number id meet a real one?)`,
    );
  }

  /** Before adding a unit's ids by their keys (4 words each from word 0): ExactDuplicateIndex.touch. */
  touch(keys: Uint32Array, count: number): number {
    return this.index.touch(keys, count);
  }

  private numberOf(path: string): number {
    let p = this.pathNumber.get(path);
    if (p === undefined) this.pathNumber.set(path, (p = this.paths.push(path) - 1));
    this.lastPath = path;
    this.lastNumber = p;
    return p;
  }

  /**
   * undefined for an id not seen before (`place` is remembered: any integer
   * up to 2^53 the caller decodes), else the place of the id's first document.
   * Give the id's text, or its key in `keys` (words [at, at + 4)).
   */
  placeOf(id: string | undefined, place: number, keys?: Uint32Array, at = 0): number | undefined {
    const { group, isNew } = keys === undefined ? this.index.add(id!) : this.index.addKey(keys, at);
    if (!isNew) return this.places[group];
    if (group === this.places.length) {
      const grown = new Float64Array(group * 2);
      grown.set(this.places);
      this.places = grown;
    }
    this.places[group] = place;
    return undefined;
  }
}

function idText(id: string | (() => string)): string {
  return typeof id === 'string' ? id : id();
}

/** The message for a repeated id; `first` names where the id was first seen. */
export function repeatedIdMessage(id: string, first: string): string {
  return `id ${JSON.stringify(id)} repeats the id of ${first}; ids must be unique`;
}

/** Documents as they are read, refused at the first repeated id. */
export async function* requireUniqueIds(documents: AsyncIterable<InputDocument>): AsyncGenerator<InputDocument> {
  const ids = new UniqueIds();
  for await (const doc of documents) {
    ids.add(doc.id, doc.source.path, doc.source.line);
    yield doc;
  }
}

/**
 * Refuses documents held in memory with an id twice, naming both indexes: "documents[3]: id "a" repeats the id of
 * documents[1]; …".
 */
export function requireUniqueIdsInMemory(documents: readonly { readonly id: string }[], name = 'documents'): void {
  const ids = new UniqueIds();
  for (let i = 0; i < documents.length; i++) {
    const first = ids.placeOf(documents[i].id, i);
    if (first !== undefined) {
      throw new RangeError(
        `${name}[${i}]: ${repeatedIdMessage(documents[i].id, `${name}[${first}]`)} (does a string document's index ` +
          `meet a real id?)`,
      );
    }
  }
}
