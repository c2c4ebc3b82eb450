/**
 * The first pass refuses a repeated id, naming both places (the rule:
 * src/clusters/uniqueIds.ts): the same id twice, a line-number id (`2`)
 * meeting a real `"id": 2`, or one file given twice. No Node imports: the
 * tab and the library check ids the same way.
 */
import { repeatedIdMessage, UniqueIds as IdIndex } from '../clusters/uniqueIds.js';
import { InputError, type InputDocument } from '../io/documents.js';

const LINES = 2 ** 32; // a place is path number × 2^32 + line (exact below 2^53: 2 M files)

export class UniqueIds {
  private readonly ids = new IdIndex();
  private readonly paths: string[] = [];
  private readonly pathNumber = new Map<string, number>();

  /** Bytes of its tables (the paths aside, a few per file). */
  get bytes(): number {
    return this.ids.bytes;
  }

  /** Records an id seen at `path:line` (line 0: a whole file), or throws naming both places; `keys`: the id hashed by a worker. */
  add(id: string, path: string, line: number, keys?: Uint32Array, at = 0): void {
    let p = this.pathNumber.get(path);
    if (p === undefined) this.pathNumber.set(path, (p = this.paths.push(path) - 1));
    const first = this.ids.add(id, p * LINES + line, keys, at);
    if (first === undefined) return;
    const firstPath = this.paths[Math.floor(first / LINES)];
    const firstLine = first % LINES;
    const where = firstLine > 0 ? `${firstPath}:${firstLine}` : firstPath;
    throw new InputError(path, line, `${repeatedIdMessage(id, where)} (is a file given twice, or does a line-number id meet a real one?)`);
  }
}

export async function* requireUniqueIds(documents: AsyncIterable<InputDocument>): AsyncGenerator<InputDocument> {
  const ids = new UniqueIds();
  for await (const doc of documents) {
    ids.add(doc.id, doc.source.path, doc.source.line);
    yield doc;
  }
}
