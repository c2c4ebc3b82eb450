/**
 * The first pass refuses a repeated id, naming both places (the rule:
 * src/clusters/uniqueIds.ts): the same id twice, a line-number id (`2`)
 * meeting a real `"id": 2`, or one file given twice.
 */
import { repeatedIdMessage, UniqueIds } from '../clusters/uniqueIds.js';
import { InputError, type InputDocument } from '../io/documents.js';

const LINES = 2 ** 32; // a place is path number × 2^32 + line (exact below 2^53: 2 M files)

export async function* requireUniqueIds(documents: AsyncIterable<InputDocument>): AsyncGenerator<InputDocument> {
  const ids = new UniqueIds();
  const paths: string[] = [];
  const pathNumber = new Map<string, number>();
  for await (const doc of documents) {
    let p = pathNumber.get(doc.source.path);
    if (p === undefined) pathNumber.set(doc.source.path, (p = paths.push(doc.source.path) - 1));
    const first = ids.add(doc.id, p * LINES + doc.source.line);
    if (first !== undefined) {
      const path = paths[Math.floor(first / LINES)];
      const line = first % LINES;
      const where = line > 0 ? `${path}:${line}` : path;
      throw new InputError(doc.source.path, doc.source.line, `${repeatedIdMessage(doc.id, where)} (is a file given twice, or does a line-number id meet a real one?)`);
    }
    yield doc;
  }
}
