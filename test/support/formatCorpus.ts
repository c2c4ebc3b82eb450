/**
 * A corpus for the format tests: licence texts from the sample (real
 * near-duplicates) plus short synthetic documents with planted near and exact
 * duplicates, over 2,048 rows so that DuckDB (whose row groups hold at least
 * 2,048 rows) writes several row groups.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export interface CorpusRecord {
  id: string;
  text: string;
  score: number;
  lang: string;
  [key: string]: unknown;
}

export function formatCorpus(): CorpusRecord[] {
  const sample = gunzipSync(readFileSync('data/sample.jsonl.gz'))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: string; text: string });
  const records: CorpusRecord[] = sample
    .slice(0, 120)
    .map((r, i) => ({ id: r.id, text: r.text, score: i % 7, lang: 'en' }));
  let state = 12345;
  const next = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8;
  const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
  for (let i = 0; i < 2100; i++) {
    let words: string[];
    if (i % 9 === 8) {
      // a near-duplicate of an earlier synthetic document: one word of forty replaced
      words = records[120 + (next() % (i - 1))].text.split(' ');
      words[next() % words.length] = 'planted';
    } else {
      words = Array.from({ length: 40 }, () => vocabulary[next() % vocabulary.length]);
    }
    const text = i % 31 === 30 ? records[120 + i - 5].text : words.join(' ');
    records.push({ id: `syn-${i}`, text, score: next() % 100, lang: i % 2 ? 'de' : 'fr' });
  }
  return records;
}

export function toJsonLines(records: readonly object[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
