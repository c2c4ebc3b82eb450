/**
 * A simhash index on disk (scheme simhash, maxHamming 4) answers alike through `gpudedup serve` (the built CLI, on
 * loopback, read-only), openIndex, the saved index as the tab opens it (openIndexSnapshot) and the in-memory index:
 * threshold queries and top K, the same ids, estimates and exact angles.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { openIndexSnapshot } from '../../src/lshIndex/snapshot.js';
import type { QueryResult } from '../../src/lshIndex/types.js';
import { plantedCorpus } from '../support/planted.js';
import { CLI, tempDir } from '../support/cli.js';

const OPTIONS = { scheme: 'simhash', maxHamming: 4 } as const;
const corpus = plantedCorpus(7, 8, [1, 2, 4, 8, 16], 500, 64);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
const texts = corpus.texts.filter((_, i) => i % 6 === 2).map((t) => t.replace(/^\S+/, 'qqq'));

/** Starts `gpudedup serve DIR` on loopback, read-only; resolves with its URL and a stop. */
function serve(dir: string): Promise<{ url: string; stop: () => Promise<number | null> }> {
  const args = ['serve', dir, '--port', '0', '--read-only', '--threads', '1', '--backend', 'cpu'];
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

async function post(url: string, body: object): Promise<readonly QueryResult[]> {
  const response = await fetch(`${url}/query`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: QueryResult[] }).results;
}

/** As the server writes them: six decimals. */
const six = (results: readonly QueryResult[]) =>
  results.map((r) => r.matches.map((m) => [m.id, m.similarity.toFixed(6), m.exact?.toFixed(6)]));

describe('a simhash index through serve, openIndex, the tab and in memory', () => {
  it('answers threshold and top-K queries alike', async () => {
    const dir = join(tempDir(), 'index');
    const disk = await createIndex(dir, { ...OPTIONS, backend: 'cpu', threads: 1 });
    await disk.add(docs, { all: true });
    await disk.close();
    const memory = createMemoryIndex({ ...OPTIONS, signer: inlineIndexSigner(resolveParameters(OPTIONS)) });
    await memory.add(docs, { all: true });
    const want = { threshold: await memory.query(texts), top: await memory.query(texts, { top: 4 }) };
    expect(want.threshold.some((r) => r.matches.length > 0)).toBe(true);
    expect(want.top.every((r) => r.matches.length === 4)).toBe(true);
    const server = await serve(dir);
    try {
      expect(six(await post(server.url, { texts }))).toEqual(six(want.threshold));
      expect(six(await post(server.url, { texts, top: 4 }))).toEqual(six(want.top));
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const opened = await openIndex(dir, { readOnly: true, backend: 'cpu', threads: 1 });
    try {
      expect(await opened.query(texts, { top: 4 })).toEqual(want.top);
      expect(await opened.query(texts)).toEqual(want.threshold);
    } finally {
      await opened.close();
    }
    const read = async (name: string) => new Uint8Array(readFileSync(join(dir, name)));
    const tab = await openIndexSnapshot(read, inlineIndexSigner(resolveParameters(OPTIONS)));
    expect(await tab.query(texts, { top: 4 })).toEqual(want.top);
  }, 120_000);
});
