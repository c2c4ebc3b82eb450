import { afterEach, describe, expect, it, vi } from 'vitest';
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
