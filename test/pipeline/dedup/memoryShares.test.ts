import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dedupJob } from '../../../src/pipeline/dedup/dedupJob.js';
import { tempDir } from '../../support/cli.js';
import { testDedupConfig } from '../../support/dedupConfig.js';
import { collectingStages } from '../../../src/pipeline/dedup/memoryShares.js';
import { nodeStageWorkers } from '../../../src/dedup/node/stageWorkers.js';
import type { StageRunner } from '../../../src/dedup/dedupSigned.js';

describe('collectingStages', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('collects on this thread and on the workers before each stage, then runs it through the runner', async () => {
    const events: string[] = [];
    vi.stubGlobal('gc', () => events.push('gc'));
    const runner: StageRunner = async (name, work, total) => {
      events.push(`start ${name} ${total}`);
      return work(() => undefined);
    };
    const workers = {
      collect: async () => {
        events.push('workers');
      },
    };
    const stages = collectingStages(runner, workers);
    const first = await stages('banding', () => events.push('banding') && 1, 16);
    const second = await stages('verification', async () => (events.push('verification'), 2));
    expect([first, second]).toEqual([1, 2]);
    expect(events).toEqual([
      'start banding 16',
      'workers',
      'gc',
      'banding',
      'start verification undefined',
      'workers',
      'gc',
      'verification',
    ]);
  });

  it('runs the stages as before where the runtime has no gc and there are no workers', async () => {
    vi.stubGlobal('gc', undefined);
    const stages = collectingStages(async (_name, work) => work(() => undefined));
    expect(await stages('assignment', () => 'done')).toBe('done');
  });
});

describe('stage workers', () => {
  it('answer a collect on every worker', async () => {
    const workers = nodeStageWorkers(2);
    try {
      await expect(workers.collect()).resolves.toBeUndefined();
    } finally {
      workers.destroy();
    }
  });
});

describe('dedupJob', () => {
  const dir = tempDir();
  const path = join(dir, 'corpus.jsonl');
  const lines = gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').filter(Boolean);
  writeFileSync(path, lines.slice(0, 100).join('\n') + '\n');
  afterEach(() => vi.unstubAllGlobals());

  it('collects before each stage after the first pass, and once more before the writing pass', async () => {
    const calls = { count: 0 };
    vi.stubGlobal('gc', () => calls.count++);
    const config = { ...testDedupConfig([path]), threads: 1 };
    const dry = await dedupJob(config, { out: join(dir, 'dry.jsonl'), dryRun: true });
    const stagesAfterFirstPass = Object.keys(dry.outcome.timings).filter((name) => name !== 'read + sign').length;
    expect(calls.count).toBe(stagesAfterFirstPass);
    calls.count = 0;
    await dedupJob(config, { out: join(dir, 'kept.jsonl') });
    expect(calls.count).toBe(stagesAfterFirstPass + 1);
  });
});
