/**
 * The search against an independent suffix array on a real corpus: the
 * bundled licence texts (data/sample.jsonl.gz, 5 MB, full of shared clauses),
 * with pydivsufsort (PyPI; scripts/install-python-tests.sh) building the
 * suffix array and its LCP array. The same spans and the same first
 * occurrences, for both cuts (other lengths: the brute-force suite).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { corpusOf } from '../../src/substrings/corpusText.js';
import { searchRepeatsHere } from '../../src/substrings/searchRepeats.js';
import { spanRows } from '../../src/substrings/spans.js';

const SCRIPT = new URL('./suffixArraySpans.py', import.meta.url).pathname;
const HINT = 'install it with: bash scripts/install-python-tests.sh (pip install pydivsufsort==0.0.20)';
const underCi = (): boolean => !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

function pydivsufsortMissing(): string | undefined {
  try {
    execFileSync('python3', ['-c', 'import pydivsufsort, numpy'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'python3 cannot import pydivsufsort and numpy';
  }
}

const texts = gunzipSync(readFileSync(new URL('../../data/sample.jsonl.gz', import.meta.url)))
  .toString('utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => (JSON.parse(line) as { text: string }).text);

describe('substrings against a suffix array (pydivsufsort)', () => {
  const missing = pydivsufsortMissing();
  beforeEach((context) => {
    if (!missing) return;
    if (underCi()) throw new Error(`${missing}; ${HINT} (CI is set, so this fails instead of skipping)`);
    context.skip(`${missing}; ${HINT}`);
  });

  for (const length of [100]) {
    it(`the licence corpus, --min-length ${length}: the same spans and firsts for both cuts`, async () => {
      const reference = JSON.parse(execFileSync('python3', [SCRIPT], { input: JSON.stringify({ texts, length }), maxBuffer: 1 << 28, encoding: 'utf8' })) as Record<'later' | 'all', number[][]>;
      const corpus = corpusOf(texts);
      for (const cut of ['later', 'all'] as const) {
        const { spans } = await searchRepeatsHere(corpus, { minLength: length, cut, memoryLimitBytes: 1 << 28 });
        const rows = spanRows(corpus, spans).map((r) => [r.document, r.start, r.end, r.firstDocument, r.firstStart]);
        expect(rows.length).toBeGreaterThan(1000);
        expect(rows).toEqual(reference[cut]);
      }
    }, 120_000);
  }
});
