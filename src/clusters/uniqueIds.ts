/**
 * Every document's id must be unique, or a clusters table and a signature
 * sidecar cannot be joined back to the corpus. The rule, for the CLI's reader
 * (src/firstPass/uniqueIds.ts) and the library's in-memory documents (src/api.ts)
 * alike: the first document with an id wins, a repeat is refused naming both
 * places. Ids are keyed by a 128-bit hash (the exact pre-pass's table), plus
 * 8 bytes per id for where it was first seen.
 */
import { ExactDuplicateIndex } from './exactDuplicates.js';

export class UniqueIds {
  private readonly index = new ExactDuplicateIndex();
  private places = new Float64Array(1024);

  /** Bytes of its hash table and places. */
  get bytes(): number {
    return this.index.bytes + this.places.byteLength;
  }

  /**
   * undefined for an id not seen before (`place` is remembered: any integer
   * up to 2^53 the caller decodes), else the place of the id's first document.
   */
  add(id: string, place: number, keys?: Uint32Array, at = 0): number | undefined {
    // `keys`: the id already hashed (a first-pass worker), its 128-bit key at words [at, at + 4).
    const { group, isNew } = keys === undefined ? this.index.add(id) : this.index.addKey(keys, at);
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

/** The message for a repeated id; `first` names where the id was first seen. */
export function repeatedIdMessage(id: string, first: string): string {
  return `id ${JSON.stringify(id)} repeats the id of ${first}; ids must be unique`;
}

/** Refuses documents held in memory with an id twice, naming both indexes: "documents[3]: id "a" repeats the id of documents[1]; …". */
export function requireUniqueIdsInMemory(documents: readonly { readonly id: string }[], name = 'documents'): void {
  const ids = new UniqueIds();
  for (let i = 0; i < documents.length; i++) {
    const first = ids.add(documents[i].id, i);
    if (first !== undefined) {
      throw new RangeError(`${name}[${i}]: ${repeatedIdMessage(documents[i].id, `${name}[${first}]`)} (does a string document's index meet a real id?)`);
    }
  }
}
