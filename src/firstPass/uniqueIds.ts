/**
 * Every document's id must be unique, or `--clusters` and the sidecar cannot
 * be joined back to the corpus: the same id twice, a line-number id (`2`)
 * meeting a real `"id": 2`, or one file given twice. The first pass refuses a
 * repeat, naming both places. Ids are keyed by a 128-bit hash (the exact
 * pre-pass's table), plus 8 bytes per document for where each was first seen.
 * No Node imports: the tab and the library check ids the same way.
 */
import { ExactDuplicateIndex } from '../clusters/exactDuplicates.js';
import { InputError, type InputDocument } from '../io/documents.js';

export class UniqueIds {
  private readonly index = new ExactDuplicateIndex();
  private readonly paths: string[] = [];
  private readonly pathNumber = new Map<string, number>();
  private firstPath = new Uint32Array(1024);
  private firstLine = new Int32Array(1024);

  /** Records an id first seen at `path:line` (line 0: a whole file; −1: position `line` unknown), or throws naming both places. */
  add(id: string, path: string, line: number, keys?: Uint32Array, at = 0): void {
    const found = keys === undefined ? this.index.add(id) : this.index.addKey(keys, at);
    if (found.isNew) return this.remember(found.group, path, line);
    const first = this.where(found.group);
    throw new InputError(path, line, `id ${JSON.stringify(id)} repeats the id of ${first}; ids must be unique (is a file given twice, or does a line-number id meet a real one?)`);
  }

  private remember(group: number, path: string, line: number): void {
    if (group === this.firstPath.length) {
      this.firstPath = grow(this.firstPath, new Uint32Array(group * 2));
      this.firstLine = grow(this.firstLine, new Int32Array(group * 2));
    }
    let p = this.pathNumber.get(path);
    if (p === undefined) this.pathNumber.set(path, (p = this.paths.push(path) - 1));
    this.firstPath[group] = p;
    this.firstLine[group] = line;
  }

  private where(group: number): string {
    const path = this.paths[this.firstPath[group]];
    const line = this.firstLine[group];
    return line > 0 ? `${path}:${line}` : path;
  }
}

export async function* requireUniqueIds(documents: AsyncIterable<InputDocument>): AsyncGenerator<InputDocument> {
  const ids = new UniqueIds();
  for await (const doc of documents) {
    ids.add(doc.id, doc.source.path, doc.source.line);
    yield doc;
  }
}

function grow<T extends Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
