import { describe, expect, it } from 'vitest';
import { mayOpenGpu, runsInChild, writesShard } from '../../src/cli/processRoute.js';

const argv = (...args: string[]): string[] => ['node', 'gpudedup', ...args];
const noGpu = (): string => 'no GPU device';
const gpu = (): undefined => undefined;

describe('processRoute', () => {
  it('runs sign --shard in a child process (its heap flags on the command line), with or without a GPU', () => {
    for (const shard of [['--shard', '1/2'], ['--shard=2/2']]) {
      const line = argv('sign', 'corpus.jsonl', ...shard, '-o', 's.parquet', '--backend', 'cpu');
      expect(writesShard(line)).toBe(true);
      expect(runsInChild(line, noGpu)).toBe(true);
      expect(runsInChild(line, gpu)).toBe(true);
    }
  });

  it('runs other commands without a GPU in this process, and help anywhere here', () => {
    expect(runsInChild(argv('sign', 'corpus.jsonl', '-o', 'sig.npy'), noGpu)).toBe(false);
    expect(runsInChild(argv('dedup', 'corpus.jsonl', '-o', 'kept.jsonl'), noGpu)).toBe(false);
    expect(runsInChild(argv('cluster', 's1.parquet', '--shard', 'x'), gpu)).toBe(false);
    expect(runsInChild(argv('sign', 'corpus.jsonl', '--shard', '1/2', '--help'), gpu)).toBe(false);
  });

  it('runs a command that may open a GPU in a child (its native warnings filtered)', () => {
    expect(mayOpenGpu(argv('dedup', 'corpus.jsonl'), gpu)).toBe(true);
    expect(mayOpenGpu(argv('dedup', 'corpus.jsonl', '--backend', 'cpu'), gpu)).toBe(false);
    expect(mayOpenGpu(argv('dedup', 'corpus.jsonl', '--backend=webgpu'), noGpu)).toBe(true);
    expect(mayOpenGpu(argv('doctor'), noGpu)).toBe(true);
    expect(mayOpenGpu(argv('index', 'stats', 'x'), gpu)).toBe(false);
    expect(mayOpenGpu(argv('index', 'add', 'x'), gpu)).toBe(true);
  });
});
