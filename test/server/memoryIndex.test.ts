/**
 * The server against core's in-memory index (the same engine as the on-disk
 * one): real signatures and verification behind the routes, reads while
 * writes run (each answer the state before or after a write, never an
 * error), and the index's own refusal of an id already indexed (409).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryIndex } from '../../src/lshIndex/memoryIndex.js';
import { resolveParameters } from '../../src/lshIndex/options.js';
import { inlineIndexSigner } from '../../src/lshIndex/signing.js';
import { startServer, type RunningServer } from '../../src/server/http.js';
import { rng } from '../support/reference.js';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop(1000)));
});

async function serveMemory(): Promise<RunningServer> {
  const index = createMemoryIndex({ signer: inlineIndexSigner(resolveParameters({})) });
  const server = await startServer(
    { reader: index, writer: index },
    { host: '127.0.0.1', port: 0, maxBody: 2 ** 20, queue: 64 },
  );
  running.push(server);
  return server;
}

async function post(server: RunningServer, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(server.url + path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** `count` texts of 120 words from a vocabulary of 20,000: unrelated to each other. */
function texts(seed: number, count: number): string[] {
  const next = rng(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: 120 }, () => `w${Math.floor(next() * 20_000)}`).join(' '),
  );
}

/** `text` with its 61st word changed: word 5-gram Jaccard 111/121 ≈ 0.92. */
const edited = (text: string): string =>
  text
    .split(' ')
    .map((w, i) => (i === 60 ? `${w}x` : w))
    .join(' ');

describe('serve over the in-memory index', () => {
  it('answers top and containment queries with their fields, and refuses what the index cannot do with 400', async () => {
    const server = await serveMemory();
    const docs = texts(3, 20);
    const host = `${docs[0]} ${docs[1]}`; // holds all of docs[1]: containment 1, Jaccard ≈ 0.5
    await post(server, '/add', {
      documents: [
        ...docs.slice(2).map((text, i) => ({ id: `d${i + 2}`, text })),
        { id: 'a', text: docs[0] },
        { id: 'host', text: host },
      ],
    });
    const top = await post(server, '/query', { texts: [edited(docs[0])], top: 2 });
    expect(top.status).toBe(200);
    const [first, second] = top.body.results[0].matches;
    expect(first).toMatchObject({ id: 'a' });
    expect(first.exact).toBeGreaterThan(0.85);
    expect(second).toMatchObject({ id: 'host' });
    const estimated = await post(server, '/query', { texts: [edited(docs[0])], top: 1, rerank: 'estimate' });
    expect(estimated.body.results[0].matches[0].exact).toBeUndefined();
    const contained = await post(server, '/query', { documents: [{ id: 'item', text: docs[1] }], containment: 0.9 });
    expect(contained.status).toBe(200);
    expect(contained.body.results[0]).toMatchObject({ id: 'item', matches: [{ id: 'host', exactContainment: 1 }] });
    expect(contained.body.results[0].matches[0].containment).toBeGreaterThan(0.6);
    const refused = await post(server, '/query', { texts: ['x'], rerank: 'exact' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/rerank ranks the top K/);
    expect((await post(server, '/query', { texts: ['x'], containment: 2 })).status).toBe(400);
  });

  it('adds, finds a near-duplicate with its similarity, keeps it out, removes', async () => {
    const server = await serveMemory();
    const [a, b] = texts(1, 2);
    const added = await post(server, '/add', {
      documents: [
        { id: 'a', text: a },
        { id: 'b', text: b },
        { id: 'a2', text: edited(a) },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body.added).toBe(2);
    expect(added.body.decisions[2]).toMatchObject({ id: 'a2', added: false, matches: [{ id: 'a' }] });
    const found = await post(server, '/query', {
      documents: [
        { id: 'q', text: edited(a) },
        { id: 'r', text: texts(2, 1)[0] },
      ],
    });
    expect(found.status).toBe(200);
    expect(found.body.results[0].id).toBe('q');
    expect(found.body.results[0].matches.map((m: { id: string }) => m.id)).toEqual(['a']);
    expect(found.body.results[0].matches[0].similarity).toBeGreaterThan(0.6);
    expect(found.body.results[1]).toEqual({ id: 'r', matches: [] });
    const conflict = await post(server, '/add', { documents: [{ id: 'b', text: 'something else entirely' }] });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatch(/^id "b" is already in the index/);
    expect((await post(server, '/remove', { ids: ['a', 'zz'] })).body).toEqual({ removed: 1 });
    expect((await post(server, '/query', { texts: [a] })).body.results[0].matches).toEqual([]);
  });

  it('two clients at once, one adding batches, one querying: every query answers, and sees whole batches in order', async () => {
    const server = await serveMemory();
    const batches = Array.from({ length: 12 }, (_, b) =>
      texts(100 + b, 40).map((text, i) => ({ id: `b${b}-${i}`, text })),
    );
    // The first and last document of every batch: a batch is visible whole or not at all, and only after those before it.
    const probes = batches.flatMap((batch) => [batch[0].text, batch[batch.length - 1].text]);
    let adding = true;
    const writer = (async () => {
      for (const batch of batches)
        expect((await post(server, '/add', { documents: batch })).body.added).toBe(batch.length);
      adding = false;
    })();
    const seen: number[] = [];
    const reader = (async () => {
      for (let round = 0; round < 400 && (adding || round < 2); round++) {
        const answer = await post(server, '/query', { texts: probes });
        expect(answer.status).toBe(200);
        const visible = answer.body.results.map((r: { matches: unknown[] }) => r.matches.length > 0);
        const whole = batches.map((_, b) => {
          expect(visible[2 * b], `batch ${b} half visible`).toBe(visible[2 * b + 1]);
          return visible[2 * b] as boolean;
        });
        const count = whole.filter(Boolean).length;
        expect(whole, 'visible batches are a prefix').toEqual(batches.map((_, b) => b < count));
        seen.push(count);
      }
    })();
    await Promise.all([writer, reader]);
    expect(seen.at(-1)).toBe(batches.length);
    expect(new Set(seen).size, `states seen: ${[...new Set(seen)]}`).toBeGreaterThan(1);
  });
});
