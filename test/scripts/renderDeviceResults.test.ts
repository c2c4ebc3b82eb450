/** The H200 section's renderer and the roofline it reports (bench/renderDeviceResults.ts, bench/deviceRoofline.ts). */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/cli.js';
import { feedFromBench, type DeviceSummary } from '../../bench/deviceCheck.js';
import { judgeTargets, knownSmCount, roofline } from '../../bench/deviceRoofline.js';
import {
  HEADING,
  notMeasuredSection,
  renderDeviceSection,
  replaceSection,
  SECTION_END,
  SECTION_START,
} from '../../bench/renderDeviceResults.js';

describe('the integer-multiply roofline', () => {
  it('is SMs × max SM clock × 64 int32 multiplies per clock ÷ 16 multiplies per evaluation', () => {
    const r = roofline(132, 1980, 400e9);
    expect(r.evaluationsPerSecond).toBe(1_045_440_000_000); // 132 · 1.98e9 · 64 / 16, by hand
    expect(r.integerOpsBound).toBeCloseTo((132 * 1.98e9 * 128) / 142, -3);
    expect(r.shareOfRoofline).toBeCloseTo(400 / 1045.44, 9);
    expect(knownSmCount('NVIDIA H200')).toBe(132);
    expect(knownSmCount('NVIDIA H100 PCIe')).toBe(114);
    expect(knownSmCount('llvmpipe')).toBeUndefined();
  });

  it('judges the 16-core targets only on 16 cores or more, and the end-to-end one only on ≥ 1 GB', () => {
    const measured = {
      roofline: roofline(132, 1980, 600e9),
      gpuOverCpuSigning: 12,
      corpusBytes: 1.04e9,
      webgpuDedupMBps: 520,
      feedPerCoreMBps: 60,
      feedAllCoresMBps: 900,
    };
    expect(judgeTargets({ ...measured, cpuThreads: 16 }).map((t) => t.met)).toEqual([true, true, true, true]);
    expect(judgeTargets({ ...measured, cpuThreads: 2 }).map((t) => t.met)).toEqual([true, true, null, null]);
    expect(judgeTargets({ ...measured, cpuThreads: 16, corpusBytes: 5e8 })[1].met).toBeNull();
    expect(
      judgeTargets({ ...measured, cpuThreads: 16, webgpuDedupMBps: 140, gpuOverCpuSigning: 3 }).map((t) => t.met),
    ).toEqual([true, false, false, true]);
    expect(judgeTargets({}).map((t) => t.met)).toEqual([null, null, null, null]);
  });
});

const h200: DeviceSummary = {
  schema: 'gpudedup-device-check/1',
  started: '2026-12-02T10:00:00.000Z',
  finished: '2026-12-02T10:07:00.000Z',
  check: { documents: 520000, runs: 3, budgetSeconds: 480, allowSoftware: false },
  machine: { cpu: 'Intel Xeon', cores: 16, memoryBytes: 128 * 2 ** 30, node: 'v20.20.2', kernel: '6.18' },
  bundle: { commit: '0123456789abcdef', dirty: false },
  loader: 'carried (libvulkan1_1.3.239.0-1_amd64.deb)',
  vkDriverFiles: '/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json',
  adapter: { description: 'WebGPU on NVIDIA H200, backend vulkan', software: false, parity: true },
  gpu: {
    name: 'NVIDIA H200',
    driver: '580.159.04',
    maxSmClockMHz: 1980,
    memoryMiB: 143771,
    smCount: 132,
    smCountSource: 'torch',
  },
  corpus: { documents: 520000, bytes: 1.04e9, files: 16, seconds: 12.5 },
  bench: {
    runs: 3,
    shingles: 150e6,
    evaluations: 19.2e9,
    rows: [
      { backend: 'wasm SIMD, 16 threads (all threads)', seconds: 2.4, evaluationsPerSecond: 8e9, mbPerSecond: 433 },
      {
        backend: 'WebGPU on NVIDIA H200, backend vulkan',
        seconds: 0.1,
        evaluationsPerSecond: 192e9,
        mbPerSecond: 10400,
      },
    ],
    gpuOverCpu: 24,
    cpuThreads: 16,
  },
  roofline: roofline(132, 1980, 192e9),
  feedRate: { source: 'measured', what: 'text → packed batch', threads: 16, perCoreMBps: 40, allCoresMBps: 520 },
  dedup: {
    webgpu: {
      backend: 'WebGPU on NVIDIA H200, backend vulkan',
      seconds: 60,
      mbPerSecond: 17.3,
      documents: 520000,
      removed: 286000,
      stages: { 'read + sign': 40, writing: 8 },
    },
    cpu: {
      backend: 'CPU (wasm SIMD, 16 threads)',
      seconds: 70,
      mbPerSecond: 14.9,
      documents: 520000,
      removed: 286000,
      stages: { 'read + sign': 50, writing: 8 },
    },
  },
  steps: [{ name: 'probe', status: 'ok', seconds: 2.1, note: 'retried with VK_DRIVER_FILES' }],
  targets: [],
};
h200.targets = judgeTargets({
  roofline: h200.roofline,
  gpuOverCpuSigning: 24,
  cpuThreads: 16,
  corpusBytes: 1.04e9,
  webgpuDedupMBps: 17.3,
  feedPerCoreMBps: 40,
  feedAllCoresMBps: 520,
});

describe('the feed rate from gpudedup bench --json', () => {
  it('is taken from its feed rows (one thread, all threads), else measured by the check', () => {
    const rows = [
      { threads: 1, seconds: 10, mbPerSecond: 61, mbPerSecondPerCore: 61, shingles: 5 },
      { threads: 16, seconds: 1, mbPerSecond: 905, mbPerSecondPerCore: 56.6, shingles: 5 },
    ];
    expect(feedFromBench({ rows: [], feed: rows })).toEqual({
      source: 'bench',
      what: 'gpudedup bench --json, field "feed"',
      threads: 16,
      perCoreMBps: 61,
      allCoresMBps: 905,
      shingles: 5,
    });
    // Without the one-thread row (--no-single-thread): per core is the all-threads row's share.
    expect(feedFromBench({ feed: [rows[1]] })?.perCoreMBps).toBe(56.6);
    expect(feedFromBench({ rows: [] })).toBeUndefined();
    expect(feedFromBench({ feed: [] })).toBeUndefined();
    expect(feedFromBench(undefined)).toBeUndefined();
  });
});

describe("bench/RESULTS.md's H200 section", () => {
  it('says what ran where, every figure the check measured, and which targets were met', () => {
    const section = renderDeviceSection(h200);
    expect(section).toContain('NVIDIA H200, 132 SMs (PyTorch), max SM clock 1980 MHz, driver 580.159.04, 140 GiB');
    expect(section).toContain('VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json');
    expect(section).toContain('520,000 documents, 1.04 GB of JSON Lines');
    expect(section).toContain('= 132 × 1980 MHz × 64 ÷ 16 = **1045 G evaluations/s**');
    expect(section).toContain('**18.4 %**'); // 192 / 1045.44
    expect(section).toContain(
      '| signing kernel ≥ 50 % of its integer-multiply roofline | 18.4 % (192.0 G of 1045.4 G evaluations/s) | no |',
    );
    expect(section).toContain('| GPU ≥ 10× the 16-core CPU path on signing | 24.00× (CPU on 16 threads) | yes |');
    expect(section).toContain('| WebGPU on NVIDIA H200, backend vulkan | 0.100 | 192 G | 10400 |');
    expect(section).toContain('GPU over the CPU on 16 threads: **24.00×**');
    expect(section).toContain(
      '| `--backend webgpu` (WebGPU on NVIDIA H200, backend vulkan) | 60.0 | 17.3 | 55.0 % | 40.0 | 8.0 |',
    );
    expect(section).toContain('40.0 MB/s on one core, **520 MB/s on 16 threads**');
    expect(section).toContain('| probe | ok | 2.1 | retried with VK_DRIVER_FILES |');
  });

  it('replaces only what lies between the markers, and appends the section where there is none', () => {
    const doc = `# R\n\nbefore\n\n${HEADING}\n\n${SECTION_START}\nold\n${SECTION_END}\n\n## Next\nafter\n`;
    const out = replaceSection(doc, 'new | text');
    expect(out).toBe(`# R\n\nbefore\n\n${HEADING}\n\n${SECTION_START}\nnew | text\n${SECTION_END}\n\n## Next\nafter\n`);
    expect(replaceSection('# R\n', 'x')).toBe(`# R\n\n${HEADING}\n\n${SECTION_START}\nx\n${SECTION_END}\n`);
    expect(() => replaceSection(`# R\n${SECTION_START}\n`, 'x')).toThrow(/only one of the device-check markers/);
  });

  it('the committed section is the not-measured one, dated, until a GPU run replaces it', () => {
    const results = readFileSync('bench/RESULTS.md', 'utf8');
    const inside = results
      .slice(results.indexOf(SECTION_START) + SECTION_START.length, results.indexOf(SECTION_END))
      .trim();
    expect(inside).toMatch(/^Not yet measured: no GPU lent so far \(as of \d{4}-\d{2}-\d{2}\)\./);
    expect(replaceSection(results, notMeasuredSection(/\d{4}-\d{2}-\d{2}/.exec(inside)![0]))).toBe(results);
  });

  it("the command line refuses a software adapter's run unless told, and rewrites the file in place", () => {
    const dir = tempDir(); // removed when the file ends
    const results = join(dir, 'RESULTS.md');
    writeFileSync(results, '# Benchmark results\n');
    const software = join(dir, 'software.json');
    writeFileSync(
      software,
      JSON.stringify({ ...h200, adapter: { description: 'llvmpipe', software: true, parity: true } }),
    );
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['dist/bench/renderDeviceResults.js', ...args, '--results', results], {
        encoding: 'utf8',
      });
    const refused = cli(software);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/software\.json: its adapter is a software one \(llvmpipe\)/);
    expect(readFileSync(results, 'utf8')).toBe('# Benchmark results\n');
    const gpu = join(dir, 'h200.json');
    writeFileSync(gpu, JSON.stringify(h200));
    expect(cli(gpu).status).toBe(0);
    expect(readFileSync(results, 'utf8')).toBe(replaceSection('# Benchmark results\n', renderDeviceSection(h200)));
    expect(cli('--not-measured', '--date', '2026-12-01').status).toBe(0);
    expect(readFileSync(results, 'utf8')).toContain('Not yet measured: no GPU lent so far (as of 2026-12-01).');
  });
});
