// Done-when of the dedup issue: the same outputs, byte for byte, whether the corpus is signed on WebGPU or the CPU.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, it, type TestContext } from 'vitest';
import { runCli, tempDir } from '../support/cli.js';
import { noGpu, tryAcquireTestDevice } from '../support/gpu.js';

// The first 300 licences (0BSD … CC-*): exact duplicates, BSD and Creative Commons near-duplicates.
const slice =
  gunzipSync(readFileSync('data/sample.jsonl.gz')).toString('utf8').split('\n').slice(0, 300).join('\n') + '\n';

/** The slice in a fresh directory, once a WebGPU device is there (without one: skipped, or failed under CI). */
async function sliceWithGpu(context: TestContext): Promise<{ dir: string; input: string }> {
  const probe = await tryAcquireTestDevice('dedup cli probe');
  if ('missing' in probe) noGpu(probe.missing, (note) => context.skip(note));
  else probe.gpu.release();
  const dir = tempDir();
  const input = join(dir, 'slice.jsonl');
  writeFileSync(input, slice);
  return { dir, input };
}

it('gpudedup dedup on real licence texts: WebGPU and CPU outputs are identical', async (context) => {
  const { dir, input } = await sliceWithGpu(context);
  const outputs = (backend: string) => [
    '-o',
    join(dir, `${backend}.jsonl`),
    '--clusters',
    join(dir, `${backend}.csv`),
    '--pairs',
    join(dir, `${backend}-pairs.csv`),
    '--backend',
    backend,
    '-k',
    '64',
  ];
  const gpu = await runCli(['dedup', input, ...outputs('webgpu')]);
  expect(gpu.code).toBe(0);
  expect(gpu.stdout).toMatch(/backend\s+WebGPU/);
  expect(gpu.stderr).not.toMatch(/artificially reduced/); // Dawn's harmless native warnings are filtered
  const quiet = await runCli([
    'dedup',
    input,
    '--clusters',
    join(dir, 'quiet.csv'),
    '--backend',
    'webgpu',
    '-k',
    '64',
    '-q',
  ]);
  expect([quiet.code, quiet.stdout, quiet.stderr]).toEqual([0, '', '']); // -q: errors only
  const cpu = await runCli(['dedup', input, ...outputs('cpu')]);
  expect(cpu.code).toBe(0);
  for (const [a, b] of [
    ['webgpu.jsonl', 'cpu.jsonl'],
    ['webgpu.csv', 'cpu.csv'],
    ['webgpu-pairs.csv', 'cpu-pairs.csv'],
  ]) {
    expect(readFileSync(join(dir, a)).equals(readFileSync(join(dir, b)))).toBe(true);
  }
  // Not trivially equal: the sample has exact and near duplicates to remove.
  expect(readFileSync(join(dir, 'cpu.jsonl'), 'utf8').trim().split('\n').length).toBeLessThan(290);
});

it('gpudedup dedup --scheme simhash: WebGPU (shaders/simhash.wgsl) and CPU outputs are identical', async (context) => {
  const { dir, input } = await sliceWithGpu(context);
  const run = (backend: string) =>
    runCli([
      'dedup',
      input,
      '--scheme',
      'simhash',
      '--max-hamming',
      '6',
      '--backend',
      backend,
      '--clusters',
      join(dir, `${backend}.csv`),
    ]);
  const gpu = await run('webgpu');
  expect(gpu.code).toBe(0);
  expect(gpu.stdout).toMatch(/backend\s+WebGPU SimHash/);
  expect((await run('cpu')).code).toBe(0);
  expect(readFileSync(join(dir, 'webgpu.csv')).equals(readFileSync(join(dir, 'cpu.csv')))).toBe(true);
});
