/**
 * The device check's rehearsal, end to end on this machine's WebGPU adapter
 * (lavapipe in CI), from a fresh clone as the README tells it: `git clone`,
 * the packages (the checkout's, hard-linked: see freshClone),
 * scripts/device/prepare.sh (which builds what the check runs, no dist/ of
 * the suite's being there), then scripts/device/check.sh from the carried
 * folder alone, on a tiny corpus, traced by scripts/device/trace-loads.cjs,
 * so the folder can be held to what the check loads. Under CI a missing
 * adapter fails these tests instead of skipping them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeviceSummary } from '../../bench/deviceCheck.js';
import { renderDeviceSection, replaceSection, SECTION_END, SECTION_START } from '../../bench/renderDeviceResults.js';
import { noGpu, tryAcquireTestDevice } from '../support/gpu.js';

const ROOT = resolve(import.meta.dirname, '../..');
const MiB = 1024 * 1024;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

function run(
  cwd: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutSeconds: number,
): Promise<Run> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutSeconds * 1000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

function git(cwd: string, args: readonly string[], input?: Buffer): Buffer {
  const r = spawnSync('git', args, { cwd, input, maxBuffer: 256 * MiB });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/**
 * A fresh clone of this checkout into `dest`: HEAD, with the working tree's uncommitted changes and
 * untracked files (not the ignored ones: no dist/, no node_modules/) laid over it, and the checkout's
 * node_modules/ hard-linked in (copied across file systems), inside the clone as after `npm ci`: CI's own
 * `npm ci` (.ci/run) installs them from the same lockfile, so a second one here proved nothing for ~10
 * CPU-s. No install script runs (no `prepare`, which builds dist/src): prepare.sh has to build all of dist/.
 */
async function freshClone(dest: string): Promise<Run> {
  git(ROOT, ['-c', 'advice.detachedHead=false', 'clone', '--no-hardlinks', '--quiet', ROOT, dest]);
  const diff = git(ROOT, ['diff', '--binary', 'HEAD']);
  if (diff.length > 0) git(dest, ['apply', '--binary', '--whitespace=nowarn'], diff);
  for (const path of git(ROOT, ['ls-files', '-z', '--others', '--exclude-standard'])
    .toString()
    .split('\0')
    .filter(Boolean)) {
    cpSync(join(ROOT, path), join(dest, path));
  }
  if (existsSync(join(dest, 'dist'))) throw new Error(`the clone ${dest} has a dist/ before prepare.sh ran`);
  const packages = `${realpathSync(join(ROOT, 'node_modules'))}/.`;
  const linked = await run(dest, 'cp', ['-al', packages, 'node_modules'], {}, 300);
  if (linked.code === 0) return linked;
  rmSync(join(dest, 'node_modules'), { recursive: true, force: true });
  return run(dest, 'cp', ['-a', packages, 'node_modules'], {}, 300);
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe('device check rehearsal (scripts/device/prepare.sh, then check.sh from the carried folder)', () => {
  let missing: string | undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'gpudedup-rehearsal-'));
  const clone = join(scratch, 'clone');
  const tracer = join(clone, 'scripts/device/trace-loads.cjs');
  const bundle = join(scratch, 'carry');
  const out = join(scratch, 'out');
  const traceFile = join(scratch, 'trace.txt');
  let prepare: Run;
  let check: Run;
  let summary: DeviceSummary;

  beforeAll(async () => {
    const probe = await tryAcquireTestDevice('device rehearsal');
    if ('missing' in probe) return void (missing = probe.missing);
    probe.gpu.release(); // the check opens its own devices, in its own processes
    const install = await freshClone(clone);
    if (install.code !== 0) throw new Error(`packages into the clone failed (${install.code}): ${install.stderr}`);
    prepare = await run(clone, 'bash', ['scripts/device/prepare.sh', '--fast'], { GPUDEDUP_DEVICE_DIR: bundle }, 400);
    if (prepare.code !== 0) throw new Error(`prepare.sh failed in a fresh clone (${prepare.code}): ${prepare.stderr}`);
    const traced = {
      GPUDEDUP_TRACE_LOADS: traceFile,
      NODE_OPTIONS: `--require ${tracer}`,
      GPUDEDUP_DEVICE_LOADER: 'carried',
    };
    check = await run(
      clone,
      'bash',
      ['scripts/device/check.sh', '--docs', '400', '--runs', '1', '--budget', '400', '--allow-software'],
      { GPUDEDUP_DEVICE_DIR: bundle, OUT: out, ...traced },
      450,
    );
    summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as DeviceSummary;
    console.log(
      `device rehearsal: clone + packages ${install.seconds.toFixed(0)} s, prepare.sh (build included) ${prepare.seconds.toFixed(0)} s, check.sh ${check.seconds.toFixed(0)} s`,
    );
  }, 900_000); // under a minute on two idle cores; far more on a shared, loaded machine

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  beforeEach((context) => {
    if (missing !== undefined) noGpu(missing, (note) => context.skip(note));
  });

  it('prepare.sh, in a fresh clone, builds dist/src and dist/bench and prints the carry list and the one command', () => {
    expect(existsSync(join(clone, 'dist/src/cli/main.js'))).toBe(true);
    expect(existsSync(join(clone, 'dist/bench/deviceCheck.js'))).toBe(true);
    const manifest = JSON.parse(readFileSync(join(bundle, 'manifest.json'), 'utf8')) as { commit: string };
    expect(manifest.commit).toBe(git(ROOT, ['rev-parse', 'HEAD']).toString().trim());
    expect(prepare.stdout).toMatch(/^carry: \[".+"\]$/m);
    expect(prepare.stdout).toMatch(/^command: bash scripts\/device\/check\.sh$/m);
  });

  it('the folder is under 60 MiB and holds only what check.sh reads', () => {
    const held = files(bundle);
    expect(
      held.filter(
        (f) => !/^(node\.xz|app\.tar\.xz|manifest\.json|vulkan\/(libvulkan1|libglvnd0)_[^/]+_amd64\.deb)$/.test(f),
      ),
    ).toEqual([]);
    expect(held.filter((f) => f.startsWith('vulkan/')).map((f) => f.split('_')[0])).toEqual([
      'vulkan/libglvnd0',
      'vulkan/libvulkan1',
    ]);
    const bytes = held.reduce((s, f) => s + statSync(join(bundle, f)).size, 0);
    expect(bytes).toBeLessThan(60 * MiB);
    // The default folder is ignored by git, so it travels only when carried.
    expect(spawnSync('git', ['check-ignore', '-q', '.device/node.xz'], { cwd: ROOT }).status).toBe(0);
  });

  it('check.sh runs every step from the carried folder and brings back at most 8 files', () => {
    expect(check.code, check.stderr).toBe(0);
    const back = readdirSync(out);
    expect(back.length).toBeLessThanOrEqual(8);
    expect(back.sort()).toEqual([
      'bench.json',
      'bench.svg',
      'check.log',
      'dedup-cpu.json',
      'dedup-webgpu.json',
      'doctor.json',
      'summary.json',
    ]);
    expect(summary.steps.map((s) => [s.name, s.status])).toEqual([
      ['probe', 'ok'],
      ['doctor', 'ok'],
      ['gpu info', 'skipped'], // no nvidia-smi here: no roofline
      ['corpus', 'ok'],
      ['bench', 'ok'],
      ['dedup --backend webgpu', 'ok'],
      ['feed rate', 'ok'],
      ['dedup --backend cpu', 'ok'],
    ]);
    expect(summary.finished).toBeDefined();
    expect(summary.loader).toMatch(/^carried \(libglvnd0_.*libvulkan1_/);
    expect(summary.adapter?.parity).toBe(true);
  });

  it('measures what the H200 run needs: all threads against WebGPU, both backends with the same results, the feed rate', () => {
    const bench = JSON.parse(readFileSync(join(out, 'bench.json'), 'utf8')) as {
      documents: number;
      machine: { adapter?: string };
      rows: { backend: string }[];
    };
    expect(bench.documents).toBe(400);
    // --no-single-thread: only the all-threads row and the adapter's.
    expect(bench.rows.map((r) => r.backend)).toEqual([
      expect.stringMatching(/\(all threads\)$/),
      bench.machine.adapter,
    ]);
    expect(summary.bench!.gpuOverCpu).toBeGreaterThan(0);
    expect(summary.corpus!.documents).toBe(400);
    expect(summary.corpus!.bytes).toBeGreaterThan(400 * 1000); // 1–3 KB documents
    expect(summary.corpus!.bytes).toBeLessThan(400 * 4000);
    const webgpu = summary.dedup.webgpu!;
    const cpu = summary.dedup.cpu!;
    expect(webgpu.backend).toBe(summary.adapter!.description);
    expect(cpu.backend).toMatch(/^CPU \(/);
    // Bit-identical signatures: the same documents removed on both backends.
    expect([webgpu.documents, webgpu.removed]).toEqual([cpu.documents, cpu.removed]);
    expect(webgpu.removed).toBeGreaterThan(0);
    expect(Object.keys(webgpu.stages)).toEqual(expect.arrayContaining(['read + sign', 'banding', 'writing']));
    expect(summary.feedRate!.perCoreMBps).toBeGreaterThan(0);
    expect(summary.feedRate!.allCoresMBps).toBeGreaterThan(0);
    expect(summary.roofline).toBeUndefined();
    expect(summary.targets.map((t) => t.met)).toEqual([null, null, null, null]); // a tiny corpus on 2 cores judges nothing
  });

  it('the carried folder holds no file the check did not load, and the check loaded nothing from the checkout', () => {
    const traced = readFileSync(traceFile, 'utf8').split('\n').filter(Boolean);
    const inApp = new Set(traced.flatMap((p) => /\/gpudedup-check\.[^/]+\/app\/(.+)$/.exec(p)?.[1] ?? []));
    const listed = spawnSync('tar', ['-tJf', join(bundle, 'app.tar.xz')], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter((f) => f && !f.endsWith('/'));
    expect(listed.length).toBeGreaterThan(100);
    // Node's resolver reads package.json files ("type", "exports") without the trace seeing it: one on the path of a loaded file counts.
    const resolverReads = (f: string): boolean =>
      f.endsWith('package.json') &&
      [...inApp].some((p) => p.startsWith(`${dirname(f) === '.' ? '' : `${dirname(f)}/`}`));
    expect(listed.filter((f) => !inApp.has(f) && !resolverReads(f))).toEqual([]);
    expect(listed).toContain('node_modules/webgpu/dist/linux-x64/dawn.node');
    expect(listed.filter((f) => f.startsWith('node_modules/webgpu/dist/') && !f.includes('/linux-x64/'))).toEqual([]);
    expect(listed.filter((f) => /\.(d\.ts|map|md)$/.test(f) || f.includes('@duckdb') || f.includes('vitest'))).toEqual(
      [],
    );
    const checkouts = [ROOT, clone].flatMap((dir) => [join(dir, 'dist'), join(dir, 'node_modules')]);
    expect(traced.filter((p) => checkouts.some((dir) => p.startsWith(dir)))).toEqual([]);
    // The carried Node and Vulkan loader are the ones that ran (libglvnd0 is for NVIDIA's driver, which links libGLdispatch).
    expect(traced.some((p) => /\/gpudedup-check\.[^/]+\/node$/.test(p))).toBe(true);
    expect(
      traced.some((p) => /\/gpudedup-check\.[^/]+\/vulkan\/usr\/lib\/x86_64-linux-gnu\/libvulkan\.so\.1/.test(p)),
    ).toBe(true);
  });

  it('a step past the deadline is recorded as a timeout, and what finished before it is kept', async () => {
    const short = join(scratch, 'short');
    const budget = 20; // unpacking and the probe take most of it: doctor, if it starts, is killed in its box
    const r = await run(
      clone,
      'bash',
      ['scripts/device/check.sh', '--docs', '400', '--runs', '1', '--budget', String(budget), '--allow-software'],
      { GPUDEDUP_DEVICE_DIR: bundle, OUT: short },
      90,
    );
    expect(r.code).toBe(1);
    const cut = JSON.parse(readFileSync(join(short, 'summary.json'), 'utf8')) as DeviceSummary;
    expect(cut.finished).toBeDefined();
    const statuses = cut.steps.map((s) => s.status);
    const first = statuses.indexOf('timeout');
    expect(first, JSON.stringify(cut.steps)).toBeGreaterThanOrEqual(0);
    // Steps before the deadline finished (gpu info is skipped without nvidia-smi); none after it did.
    expect(
      statuses.slice(0, first).filter((s) => s !== 'ok' && s !== 'skipped'),
      JSON.stringify(cut.steps),
    ).toEqual([]);
    // The one exception: the feed rate read from bench's report (bench finished in time), which runs nothing.
    const fromBench = (s: DeviceSummary['steps'][number]): boolean =>
      s.name === 'feed rate' && s.status === 'ok' && s.seconds === 0 && cut.feedRate?.source === 'bench';
    expect(
      cut.steps.slice(first).filter((s) => s.status !== 'timeout' && s.status !== 'skipped' && !fromBench(s)),
      JSON.stringify(cut.steps),
    ).toEqual([]);
    expect(cut.steps.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'probe',
        'doctor',
        'corpus',
        'bench',
        'dedup --backend webgpu',
        'feed rate',
        'dedup --backend cpu',
      ]),
    );
    expect(r.seconds).toBeLessThan(budget + 20); // the budget, plus the last kill's grace
    expect(existsSync(join(short, 'check.log'))).toBe(true);
  }, 90_000);

  it("renders the rehearsal's summary into the H200 section between the markers", () => {
    const section = renderDeviceSection(summary);
    expect(section).toContain(summary.adapter!.description);
    expect(section).toContain('| dedup --backend webgpu | ok |');
    expect(section).toMatch(/`--backend webgpu` .*\| [\d.]+ \| [\d.]+ \|/);
    expect(section).toContain('Roofline: not computed');
    const results = readFileSync(join(ROOT, 'bench/RESULTS.md'), 'utf8');
    const rendered = replaceSection(results, section);
    expect(rendered.startsWith(results.slice(0, results.indexOf(SECTION_START)))).toBe(true);
    expect(rendered.endsWith(results.slice(results.indexOf(SECTION_END)))).toBe(true);
    expect(replaceSection(rendered, section)).toBe(rendered);
  });
});
