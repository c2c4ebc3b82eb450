/**
 * A writer killed outright (SIGKILL) in the middle of a sequence of commits,
 * at random moments (several seeds): the index it leaves opens to exactly
 * the state after one of the commits, and the next writer takes it over and
 * cleans up. The writer is a separate Node process on the built library
 * (dist/: `npm run build` first).
 */
import { spawn } from 'node:child_process';
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, openIndex, type DiskIndex } from '../../src/lshIndex/diskIndex.js';
import { readManifest, referencedFiles } from '../../src/lshIndex/manifest.js';
import { plantedCorpus } from '../support/planted.js';
import { requireFreshDist } from '../support/freshDist.js';
import { rng } from '../support/reference.js';
import { tempDir } from '../support/tempDirs.js';

const corpus = plantedCorpus(9, 40, [4, 30]);
const docs = corpus.texts.map((text, i) => ({ id: `d${i}`, text }));
const probes = corpus.texts.filter((_, i) => i % 5 === 0);
const BATCHES = 6;
const batch = (b: number) => docs.slice(20 + b * 16, 20 + (b + 1) * 16);

/** The writer: opens the index, says so, then commits BATCHES adds and a remove, one after another. */
const WRITER = `
const { readFileSync } = await import('node:fs');
const { openIndex } = await import(${JSON.stringify(resolve(import.meta.dirname, '../../dist/src/index.js'))});
const [dir, batches] = process.argv.slice(1);
const index = await openIndex(dir);
process.stdout.write('ready\\n');
for (const documents of JSON.parse(readFileSync(batches, 'utf8'))) await index.add(documents);
await index.remove(['d0', 'd1', 'd2']);
await index.close();
process.stdout.write('done\\n');
`;

async function snapshot(index: DiskIndex): Promise<string> {
  const { documents, removed, segments } = await index.stats();
  return JSON.stringify({ documents, removed, segments, answers: await index.query(probes) });
}

describe('SIGKILL of a writer process', () => {
  it('leaves exactly the state after one of its commits, at random moments (several seeds)', async () => {
    requireFreshDist();
    const base = join(tempDir(), 'base');
    const index = await createIndex(base, { threshold: 0.7 });
    await index.add(docs.slice(0, 20));
    await index.close();
    const batches = join(tempDir(), 'batches.json');
    writeFileSync(batches, JSON.stringify(Array.from({ length: BATCHES }, (_, b) => batch(b))));

    // Every state the sequence passes through, in process.
    const states: string[] = [];
    const clean = join(tempDir(), 'clean');
    cpSync(base, clean, { recursive: true });
    const reference = await openIndex(clean);
    states.push(await snapshot(reference));
    for (let b = 0; b < BATCHES; b++) {
      await reference.add(batch(b));
      states.push(await snapshot(reference));
    }
    await reference.remove(['d0', 'd1', 'd2']);
    states.push(await snapshot(reference));
    await reference.close();

    // How long the whole sequence takes in a process, to kill inside it.
    const full = await runWriter(join(tempDir(), 'timing'), base, batches);
    expect(full.done).toBe(true);
    const reached = new Set<number>();
    // Five seeds at least; more (up to 12) while every kill has landed in one state: one timing of the whole
    // sequence is a rough guide on a busy machine, and the point is kills at several moments.
    for (let seed = 1; seed <= 12 && (seed <= 5 || reached.size < 2); seed++) {
      const dir = join(tempDir(), `kill-${seed}`);
      const delay = Math.floor(rng(seed * 104_729)() * full.ms);
      const run = await runWriter(dir, base, batches, delay);
      const reopened = await openIndex(dir); // takes over the dead writer's lock, cleans what it left
      expect(reopened.lockNote ?? '').toMatch(run.done ? /^$/ : /no longer running/);
      const state = states.indexOf(await snapshot(reopened));
      expect(state).toBeGreaterThanOrEqual(0);
      reached.add(state);
      const names = referencedFiles(readManifest(dir));
      expect(readdirSync(dir).filter((f) => !names.has(f) && f !== 'writer.lock')).toEqual([]);
      await reopened.close();
    }
    expect(reached.size).toBeGreaterThan(1); // the kills landed at different points
  }, 240_000);
});

/** Copies `base` to `dir` and runs the writer there, killed `killAfter` ms after it is ready (never, by default). */
function runWriter(
  dir: string,
  base: string,
  batches: string,
  killAfter?: number,
): Promise<{ done: boolean; ms: number }> {
  cpSync(base, dir, { recursive: true });
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', WRITER, dir, batches], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let readyAt = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (readyAt === 0 && out.includes('ready')) {
        readyAt = performance.now();
        if (killAfter !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfter);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', fail);
    child.on('exit', (code, signal) => {
      if (signal === null && code !== 0) fail(new Error(`writer exited ${code}: ${err}`));
      else done({ done: out.includes('done'), ms: performance.now() - readyAt });
    });
  });
}
