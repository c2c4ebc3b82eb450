/**
 * The index passes' plumbing (src/pipeline/index/indexAdd.ts, indexQuery.ts) with a
 * stand-in index whose decisions are known (exact text equality): what is
 * written to -o (lines verbatim), --matches, --report and the query lines,
 * and what is refused before any work. The real index is tested by
 * test/lshIndex and, through the CLI, by test/cli/index.test.ts.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ } from '../../../src/io/documents.js';
import type {
  AddOptions,
  AddResult,
  DedupIndex,
  IndexDocument,
  IndexStats,
  QueryOptions,
  QueryResult,
} from '../../../src/lshIndex/types.js';
import { indexAdd, indexAddPreflight, type IndexAddConfig } from '../../../src/pipeline/index/indexAdd.js';
import { queryDocuments, queryPreflight } from '../../../src/pipeline/index/indexQuery.js';
import { tempDir } from '../../support/tempDirs.js';

/** Documents match when their texts are equal (similarity 1, exact 1). */
class EqualTextIndex implements DedupIndex {
  readonly docs = new Map<string, string>();
  async add(documents: readonly IndexDocument[], options: AddOptions = {}): Promise<AddResult> {
    let added = 0;
    let matched = 0;
    const decisions = documents.map((doc) => {
      if (this.docs.has(doc.id)) throw new Error(`id ${doc.id} is already in the index`);
      const matches = [...this.docs]
        .filter(([, text]) => text === doc.text)
        .map(([id]) => ({ id, similarity: 1, exact: 1 }));
      const isAdded = options.all === true || matches.length === 0;
      if (isAdded) {
        this.docs.set(doc.id, doc.text);
        added++;
      }
      if (matches.length > 0) matched++;
      return { id: doc.id, added: isAdded, matches };
    });
    return { decisions, added, matched };
  }
  async query(texts: readonly string[], options: QueryOptions = {}): Promise<readonly QueryResult[]> {
    return texts.map((text) => ({
      matches: [...this.docs]
        .filter(([, t]) => t === text)
        .slice(0, options.top ?? Infinity)
        .map(([id]) => ({ id, similarity: 1 })),
    }));
  }
  async remove(): Promise<{ removed: number }> {
    return { removed: 0 };
  }
  async stats(): Promise<IndexStats> {
    return {
      documents: this.docs.size,
      removed: 0,
      segments: 1,
      bytesOnDisk: 100,
      parameters: { threshold: 0.8, k: 128 },
    };
  }
  async close(): Promise<void> {}
}

function setup(lines: string): { dir: string; corpus: string; index: string } {
  const dir = tempDir();
  const index = join(dir, 'index');
  mkdirSync(index);
  const corpus = join(dir, 'a.jsonl');
  writeFileSync(corpus, lines);
  return { dir, corpus, index };
}

const CORPUS =
  '{"id":"a","text":"one two","x":1}\r\n{"id":"b","text":"three"}\n{"text":"one two","id":"c"}\n{"id":"d","text":"four"}';

describe('index add: the outputs', () => {
  it('-o holds the added documents, lines verbatim; --matches a row per match; --report the counts', async () => {
    const { dir, corpus, index } = setup(CORPUS);
    const stand = new EqualTextIndex();
    await stand.add([{ id: 'old', text: 'four' }]);
    const config: IndexAddConfig = {
      dir: index,
      inputs: [corpus],
      read: DEFAULT_READ,
      all: false,
      outputs: { out: join(dir, 'kept.jsonl'), matches: join(dir, 'm.csv'), report: join(dir, 'r.json') },
    };
    const report = await indexAdd(stand, config, await indexAddPreflight(config));
    expect(readFileSync(join(dir, 'kept.jsonl'), 'utf8')).toBe(
      '{"id":"a","text":"one two","x":1}\r\n{"id":"b","text":"three"}\n',
    );
    expect(readFileSync(join(dir, 'm.csv'), 'utf8')).toBe('id,matched,estimate,exact\nc,a,1,1\nd,old,1,1\n');
    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(json).toMatchObject({
      format: 'gpudedup-index-add-report',
      documents: 4,
      added: 2,
      matched: 2,
      skipped: 2,
      matches: 2,
      indexAfter: { documents: 3 },
    });
    expect(report.added).toBe(2);
  });

  it('-o copies bytes as they are from a gzip file: invalid UTF-8, a BOM dropped, lone \\r line ends from their text', async () => {
    const dir = tempDir();
    const corpus = join(dir, 'c.jsonl.gz');
    const bytes = Buffer.concat([
      Buffer.from('\uFEFF{"id":"a","text":"x"}\n'),
      Buffer.from('{"id":"b","text":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('y"}\r\n{"id":"c","text":"x"}\r{"id":"d","text":"z"}\n\n{"id":"e","text":"w"}'),
    ]);
    writeFileSync(corpus, gzipSync(bytes));
    const config: IndexAddConfig = {
      dir: join(dir, 'index'),
      inputs: [corpus],
      read: DEFAULT_READ,
      all: false,
      outputs: { out: join(dir, 'kept.jsonl') },
    };
    await indexAdd(new EqualTextIndex(), config, await indexAddPreflight(config));
    const expected = Buffer.concat([
      Buffer.from('{"id":"a","text":"x"}\n{"id":"b","text":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('y"}\r\n{"id":"d","text":"z"}\n{"id":"e","text":"w"}\n'),
    ]);
    expect(readFileSync(join(dir, 'kept.jsonl'))).toEqual(expected);
  });

  it('--all appends everything and still reports the matches (JSONL table)', async () => {
    const { dir, corpus, index } = setup(CORPUS);
    const config: IndexAddConfig = {
      dir: index,
      inputs: [corpus],
      read: DEFAULT_READ,
      all: true,
      outputs: { matches: join(dir, 'm.jsonl') },
    };
    const report = await indexAdd(new EqualTextIndex(), config, await indexAddPreflight(config));
    expect(report).toMatchObject({ added: 4, matched: 1, skipped: 0 });
    expect(readFileSync(join(dir, 'm.jsonl'), 'utf8')).toBe('{"id":"c","matched":"a","estimate":1,"exact":1}\n');
  });

  it('a repeated id is refused naming both lines, before the index is touched', async () => {
    const { corpus, index } = setup('{"id":"a","text":"x"}\n{"id":"b","text":"y"}\n{"id":"a","text":"z"}\n');
    const stand = new EqualTextIndex();
    const config: IndexAddConfig = { dir: index, inputs: [corpus], read: DEFAULT_READ, all: false, outputs: {} };
    await expect(indexAdd(stand, config, await indexAddPreflight(config))).rejects.toThrow(
      `${corpus}:3: id "a" is also the id of ${corpus}:1`,
    );
    expect(stand.docs.size).toBe(0);
  });

  it('a malformed line is refused by file:line before the index is touched', async () => {
    const { corpus, index } = setup('{"id":"a","text":"x"}\n{"id":"b","text":\n');
    const stand = new EqualTextIndex();
    const config: IndexAddConfig = { dir: index, inputs: [corpus], read: DEFAULT_READ, all: false, outputs: {} };
    await expect(indexAdd(stand, config, await indexAddPreflight(config))).rejects.toThrow(`${corpus}:2:`);
    expect(stand.docs.size).toBe(0);
  });

  it('refuses an output that is an input or inside the index directory, before any work', async () => {
    const { dir, corpus, index } = setup(CORPUS);
    const base = { dir: index, inputs: [corpus], read: DEFAULT_READ, all: false };
    await expect(indexAddPreflight({ ...base, outputs: { out: corpus } })).rejects.toThrow(
      /-o .*a\.jsonl: is an input/,
    );
    await expect(indexAddPreflight({ ...base, outputs: { matches: join(index, 'manifest.json') } })).rejects.toThrow(
      /--matches .*manifest\.json: is inside the index/,
    );
    await expect(indexAddPreflight({ ...base, outputs: { report: index } })).rejects.toThrow(/is a directory/);
    expect(existsSync(join(dir, 'kept.jsonl'))).toBe(false);
  });
});

describe('query: one JSON line per document', () => {
  it('ids and matches in input order, --top passed on', async () => {
    const { dir, corpus, index } = setup(CORPUS);
    const stand = new EqualTextIndex();
    await stand.add([
      { id: 'x', text: 'one two' },
      { id: 'y', text: 'one two' },
    ]);
    const out = join(dir, 'q.jsonl');
    const config = { dir: index, inputs: [corpus], read: DEFAULT_READ, out, top: 1, batchSize: 3 };
    const summary = await queryDocuments(stand, config, await queryPreflight(config));
    expect(
      readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { id: 'a', matches: [{ id: 'x', similarity: 1 }] },
      { id: 'b', matches: [] },
      { id: 'c', matches: [{ id: 'x', similarity: 1 }] },
      { id: 'd', matches: [] },
    ]);
    expect(summary).toMatchObject({ documents: 4, matched: 2, matches: 2 });
  });
});
