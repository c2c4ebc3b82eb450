/**
 * Top-K through `gpudedup serve` and the on-disk library index (issue 39): the
 * built CLI serving a real index directory on 127.0.0.1 (port 0, read-only,
 * a bounded body), `openIndex` on the same directory, and the saved index
 * as the tab opens it from its files (openIndexSnapshot), answer the family
 * case with the true top 1 and top 10 (ties equal) and the README's short
 * query with the true top 5, none with nothing in common.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { openIndexSnapshot } from '../../src/lshIndex/snapshot.js';
import { bestValues, exactTruth, MIT_SENTENCE, sampleDocuments } from '../lshIndex/indexTruth.js';
import { familyCorpus } from '../lshIndex/queryCorpus.js';
import { CLI, tempDir } from '../support/cli.js';

interface Match {
  readonly id: string;
  readonly similarity: number;
  readonly exact?: number;
}

/** The family case and the bundled licences in one index (they share no shingle), and its queries' truth. */
async function indexed() {
  const family = familyCorpus(1, 100, 10);
  const licences = sampleDocuments();
  const dir = join(tempDir(), 'index');
  const index = await createIndex(dir, { backend: 'cpu', threads: 1 });
  await index.add([...family.indexed, ...licences], { all: true });
  await index.close();
  const texts = [...family.queries.map((q) => q.text), MIT_SENTENCE];
  const truth = await exactTruth([...family.indexed, ...licences], texts);
  return { dir, texts, truth };
}

/** Starts `gpudedup serve DIR` on loopback, read-only, with a 1 MiB body limit; resolves with its URL and a stop. */
function serve(dir: string): Promise<{ url: string; stop: () => Promise<number | null> }> {
  const args = ['serve', dir, '--port', '0', '--read-only', '--threads', '1', '--max-body', '1MiB'];
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ url: match[1], stop: () => (child.kill('SIGTERM'), exited) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/** POST /query with a time limit; the results' matches. */
async function query(url: string, texts: readonly string[], top: number): Promise<Match[][]> {
  const response = await fetch(`${url}/query`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ texts, top }),
    signal: AbortSignal.timeout(60_000),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { results: { matches: Match[] }[] };
  return body.results.map((r) => r.matches);
}

/** Per query, the answer's true values against the true top K's, at the six decimals the server writes. */
function checkAnswers(answers: readonly (readonly Match[])[], truth: readonly Map<string, number>[], k: number): void {
  const six = (v: number): string => v.toFixed(6);
  answers.forEach((matches, q) => {
    expect(matches.map((m) => six(truth[q].get(m.id)!))).toEqual(bestValues(truth[q], k).map(six));
    for (const m of matches) expect(m.exact).toBeGreaterThan(0);
  });
}

describe('top-K through serve and the on-disk index (issue 39)', () => {
  it('the family case and the short query: the true top K, over HTTP, through openIndex and as the tab opens it', async () => {
    const { dir, texts, truth } = await indexed();
    const families = texts.slice(0, 10);
    const server = await serve(dir);
    try {
      checkAnswers(await query(server.url, families, 1), truth, 1);
      checkAnswers(await query(server.url, families, 10), truth, 10);
      const [mit] = await query(server.url, [MIT_SENTENCE], 5);
      expect(mit[0].id).toBe('MIT-0');
      checkAnswers([mit], truth.slice(10), 5);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const index = await openIndex(dir, { readOnly: true, backend: 'cpu', threads: 1 });
    try {
      const results = await index.query(texts, { top: 10 });
      checkAnswers(
        results.slice(0, 10).map((r) => r.matches),
        truth,
        10,
      );
      checkAnswers([results[10].matches], truth.slice(10), 10);
    } finally {
      await index.close();
    }
    const read = async (name: string) => new Uint8Array(readFileSync(join(dir, name)));
    const tab = await openIndexSnapshot(read, inlineIndexSigner(resolveParameters({})));
    const tops = await tab.query(texts, { top: 1 });
    checkAnswers(
      tops.map((r) => r.matches),
      truth,
      1,
    );
  });
});
