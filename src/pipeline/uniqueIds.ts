/**
 * Every document's id must be unique, or `--clusters` and the sidecar cannot
 * be joined back to the corpus: the same id twice, a line-number id (`2`)
 * meeting a real `"id": 2`, or one file given twice. The first pass refuses a
 * repeat, naming both places. Ids are keyed by a 128-bit hash (the exact
 * pre-pass's table), plus 8 bytes per document for where each was first seen.
 */
import { ExactDuplicateIndex } from '../clusters/exactDuplicates.js';
import { InputError, type InputDocument } from '../io/documents.js';

export async function* requireUniqueIds(documents: AsyncIterable<InputDocument>): AsyncGenerator<InputDocument> {
  const index = new ExactDuplicateIndex();
  const paths: string[] = [];
  const pathNumber = new Map<string, number>();
  let firstPath = new Uint32Array(1024);
  let firstLine = new Int32Array(1024);
  for await (const doc of documents) {
    const { group, isNew } = index.add(doc.id);
    if (isNew) {
      if (group === firstPath.length) {
        firstPath = grow(firstPath, new Uint32Array(group * 2));
        firstLine = grow(firstLine, new Int32Array(group * 2));
      }
      let p = pathNumber.get(doc.source.path);
      if (p === undefined) pathNumber.set(doc.source.path, (p = paths.push(doc.source.path) - 1));
      firstPath[group] = p;
      firstLine[group] = doc.source.line;
    } else {
      const path = paths[firstPath[group]];
      const line = firstLine[group];
      const first = line > 0 ? `${path}:${line}` : path;
      throw new InputError(doc.source.path, doc.source.line, `id ${JSON.stringify(doc.id)} repeats the id of ${first}; ids must be unique (is a file given twice, or does a line-number id meet a real one?)`);
    }
    yield doc;
  }
}

function grow<T extends Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
