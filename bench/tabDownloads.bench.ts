/**
 * The tab's writing pass ("Making the downloads", web/workerOutputs.ts) run in
 * Node on a generated corpus, against the CLI's writing (writeDedupOutputs:
 * -o kept.jsonl, --clusters, --pairs as CSV) on the same dedup outcome, in the
 * same process, interleaved, best of TAB_DOWNLOADS_REPEATS (issue 31 item 15).
 *
 *   TAB_DOWNLOADS_MB=40 npm run bench:tab-downloads   (test/web/largeCorpus.ts)
 *   TAB_DOWNLOADS_INPUT=corpus.jsonl npm run bench:tab-downloads   (node dist/bench/scaleCorpus.js N corpus.jsonl)
 *
 * Prints wall seconds, CPU seconds (user + sys, whole process) per MB, and
 * the ratio tab / CLI, with the load average.
 */
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DEDUP_WEIGHTS, optimalParams } from '../src/bands/lshParams.js';
import { DEFAULT_READ } from '../src/io/documents.js';
import { runDedup } from '../src/pipeline/dedup/dedup.js';
import { writeDedupOutputs } from '../src/pipeline/dedup/writeOutputs.js';
import { makeParams, schemeOf } from '../src/signatures/params.js';
import type { DedupDocumentsResult } from '../src/dedup/dedupDocuments.js';
import { writeDownloads, type RunRecord } from '../web/workerOutputs.js';
import type { RunSettings } from '../web/protocol.js';
import { writeLargeCorpus } from '../test/web/largeCorpus.js';

const MB = Number(process.env.TAB_DOWNLOADS_MB ?? 40);
const REPEATS = Number(process.env.TAB_DOWNLOADS_REPEATS ?? 3);
const K = 16;

async function timed(work: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - started) / 1000, cpu: (used.user + used.system) / 1e6 };
}

it(`makes the tab's downloads of ${process.env.TAB_DOWNLOADS_INPUT ?? `${MB} MB`}, against the CLI's writing`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-tab-downloads-'));
  try {
    const input = process.env.TAB_DOWNLOADS_INPUT ?? join(dir, 'corpus.jsonl');
    if (process.env.TAB_DOWNLOADS_INPUT === undefined) await writeLargeCorpus(input, MB * 1e6);
    const mb = statSync(input).size / 1e6;
    const params = makeParams({ k: K });
    const lsh = optimalParams(0.8, K, DEDUP_WEIGHTS);
    const outcome = await runDedup({
      inputs: [input],
      read: DEFAULT_READ,
      params,
      backend: 'cpu',
      threshold: 0.8,
      lsh,
      verify: 'estimate',
      clusterCheck: 'none',
      keep: { kind: 'first' },
      against: [],
    });
    const file = new File([await openAsBlob(input)], input);
    const { records } = outcome;
    if (records === undefined) throw new Error('runDedup recorded no documents');
    const ids = Array.from({ length: records.documents }, (_, d) => records.id(d));
    const settings: RunSettings = {
      threshold: 0.8,
      lsh,
      manualLsh: false,
      scheme: schemeOf(params),
      weights: 'none',
      maxHamming: 3,
      k: K,
      seed: params.seed,
      shingle: params.shingle,
      n: params.n,
      nfkc: params.normalize.nfkc,
      stripPunctuation: params.normalize.stripPunctuation,
      verify: 'estimate',
      clusterCheck: 'none',
      keep: { kind: 'first' },
      backend: 'cpu',
      textField: DEFAULT_READ.textField,
      idField: DEFAULT_READ.idField,
      skipInvalid: false,
    };
    const run: RunRecord = {
      files: [file],
      reference: [],
      settings,
      params,
      result: { ...outcome, lsh } as unknown as DedupDocumentsResult,
      ids,
      backend: 'cpu',
      timings: [],
      invalidSkipped: 0,
    };
    const paths = { out: join(dir, 'kept.jsonl'), clusters: join(dir, 'clusters.csv'), pairs: join(dir, 'pairs.csv') };
    const cli = () =>
      writeDedupOutputs(outcome, paths, DEFAULT_READ, { update: () => undefined, stop: () => undefined });
    let tabKept: Blob | undefined;
    const tab = async () => {
      tabKept = (await writeDownloads(run)).downloads.kept;
    };
    const best = { cli: { wall: Infinity, cpu: Infinity }, tab: { wall: Infinity, cpu: Infinity } };
    for (let r = 0; r < REPEATS; r++) {
      for (const [name, work] of [
        ['cli', cli],
        ['tab', tab],
      ] as const) {
        const t = await timed(work);
        if (t.wall < best[name].wall) best[name] = t;
      }
    }
    expect(Buffer.from(await (tabKept as Blob).arrayBuffer()).equals(readFileSync(paths.out))).toBe(true);
    const line = (name: 'cli' | 'tab') =>
      `${best[name].wall.toFixed(2)} s, ${(best[name].cpu / mb).toFixed(3)} CPU s/MB, ${(mb / best[name].wall).toFixed(1)} MB/s`;
    console.info(
      `${records.documents} documents, ${mb.toFixed(1)} MB, best of ${REPEATS}, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}:\n` +
        `  CLI writing (kept JSONL, clusters CSV, pairs CSV): ${line('cli')}\n  tab downloads: ${line('tab')}\n` +
        `  tab / CLI: ${(best.tab.wall / best.cli.wall).toFixed(2)}× wall`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
