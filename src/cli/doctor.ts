/**
 * `gpudedup doctor`: which WebGPU adapters Dawn sees, the limits that size
 * signing batches, and a small parity check of each against the CPU backend.
 * Exit status 1 if any adapter signs differently from the CPU (or, with
 * --require-gpu, if there is no adapter at all).
 */
import type { Command } from 'commander';
import { describeAdapter, type AcquiredDevice } from '../signatures/webgpu/adapter.js';
import type { DawnAdapterEntry } from '../signatures/webgpu/nodeDevice.js';
import { chunkCapacity } from '../signatures/webgpu/plan.js';
import { runSelfCheck, type SelfCheckResult } from '../signatures/webgpu/selfCheck.js';
import { importDawn } from '../firstPass/node/resolveBackend.js';
import { reasonToPreferCpu } from '../signatures/autoChoice.js';
import { tableOption } from './options.js';
import { errorMessage } from '../errors.js';
import { fileURLToPath } from 'node:url';
import { DEFAULT_READ } from '../io/documents.js';
import { runBench, type BenchRow } from '../pipeline/bench/bench.js';
import { makeParams } from '../signatures/params.js';

interface DoctorOptions {
  readonly k: number;
  readonly json: boolean;
  readonly requireGpu: boolean;
  readonly rates: boolean;
}

/** The limits batching depends on, then the ones that bound any compute work. */
const LIMITS = [
  'maxStorageBufferBindingSize',
  'maxBufferSize',
  'maxComputeWorkgroupsPerDimension',
  'maxComputeInvocationsPerWorkgroup',
  'maxComputeWorkgroupSizeX',
  'maxStorageBuffersPerShaderStage',
] as const;

interface AdapterReport {
  readonly backend: string;
  readonly name: string;
  readonly description?: string;
  readonly limits?: Record<string, number>;
  readonly capacity?: { shingles: number; segments: number };
  readonly check?: SelfCheckResult;
  readonly error?: string;
}

interface DoctorReport {
  readonly adapters: AdapterReport[];
  /** What `--backend auto` picks, or why it would use the CPU. */
  readonly auto: string;
  readonly ok: boolean;
}

export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description('list WebGPU adapters and their limits, and check that each signs exactly like the CPU')
    .addOption(tableOption('k', '--k <slots>', 'hash slots for the signature parity check'))
    .option('--json', 'print the report as JSON', false)
    .option('--require-gpu', 'exit with status 1 when there is no WebGPU adapter', false)
    .option('--no-rates', 'skip the brief signing-rate measurement of the CPU and WebGPU paths')
    .action(async (options: DoctorOptions) => {
      const report = await runDoctor(options.k);
      const rates = options.rates ? await measureRates(options.k) : undefined;
      const missing = options.requireGpu && report.adapters.every((a) => a.check === undefined);
      process.stdout.write(
        options.json
          ? `${JSON.stringify({ ...report, rates }, null, 2)}\n`
          : formatReport(report, options.k, missing) + formatRates(rates),
      );
      if (!report.ok || missing) process.exitCode = 1;
    });
}

/**
 * The rates `--backend auto` weighs, measured briefly on a slice of the bundled
 * corpus (one run after a warm-up; `gpudedup bench` measures properly).
 */
async function measureRates(k: number): Promise<BenchRow[]> {
  const sample = fileURLToPath(new URL('../../../data/sample.jsonl.gz', import.meta.url));
  const summary = await runBench({
    inputs: [sample],
    read: DEFAULT_READ,
    params: makeParams({ k }),
    runs: 1,
    typescriptEvaluations: 1e7,
  });
  return [...summary.rows];
}

function formatRates(rows: readonly BenchRow[] | undefined): string {
  if (rows === undefined) return '';
  const lines = ['Signing rates on the bundled corpus (one run; `gpudedup bench` for medians):'];
  for (const row of rows)
    lines.push(`  ${row.backend}: ${(row.evaluationsPerSecond / 1e6).toFixed(0)} M hash evaluations/s`);
  return lines.join('\n') + '\n';
}

export async function runDoctor(k: number): Promise<DoctorReport> {
  let node: Awaited<ReturnType<typeof importDawn>>;
  try {
    node = await importDawn();
  } catch (error) {
    return { adapters: [], auto: `cpu (${errorMessage(error)})`, ok: true };
  }
  const { loadShaderSources } = await import('../signatures/webgpu/nodeShaders.js');
  const sources = loadShaderSources();

  let auto: string;
  let defaultAdapter: DawnAdapterEntry | undefined;
  try {
    const chosen = await node.acquireNodeDevice({ label: 'gpudedup doctor' });
    const skip = reasonToPreferCpu(chosen.adapter);
    auto = skip
      ? `cpu (webgpu: passed over ${describeAdapter(chosen.adapter)}: ${skip})`
      : `webgpu, ${describeAdapter(chosen.adapter)}`;
    defaultAdapter = { backend: chosen.adapter.backend, name: chosen.adapter.device };
    chosen.release();
  } catch (error) {
    auto = `cpu (webgpu: ${errorMessage(error)})`;
  }

  // Should Dawn's adapter list not parse, still check the adapter `auto` uses.
  const listed = await node.listDawnAdapters();
  const entries = listed.length > 0 ? listed : defaultAdapter ? [defaultAdapter] : [];
  const adapters: AdapterReport[] = [];
  for (const entry of entries) {
    let acquired: AcquiredDevice | undefined;
    try {
      const adapter = listed.length > 0 ? entry : undefined; // undefined: Dawn's default
      acquired = await node.acquireNodeDevice({ adapter, label: `gpudedup doctor: ${entry.name}` });
      // The adapter's own limits; batching uses the device's, raised to these where it matters.
      const limits = Object.fromEntries(LIMITS.map((name) => [name, acquired!.adapterLimits[name]]));
      const capacity = chunkCapacity(acquired.device.limits, k, 64);
      const check = await runSelfCheck(acquired.device, sources, { k });
      adapters.push({ ...entry, description: describeAdapter(acquired.adapter), limits, capacity, check });
    } catch (error) {
      adapters.push({ ...entry, error: errorMessage(error) });
    } finally {
      acquired?.release();
    }
  }
  return { adapters, auto, ok: adapters.every((a) => a.check?.ok !== false) };
}

function formatReport(report: DoctorReport, k: number, missingRequiredGpu: boolean): string {
  const lines: string[] = [];
  const count = report.adapters.length;
  lines.push(`WebGPU adapters (Dawn, npm package \`webgpu\`): ${count === 0 ? 'none' : count}`);
  if (count === 0) {
    lines.push(
      '  On Debian 12 without a GPU, install Mesa lavapipe (software Vulkan) as root: scripts/install-lavapipe.sh',
    );
  }
  report.adapters.forEach((a, i) => {
    lines.push('', `[${i + 1}] ${a.name}, backend ${a.backend}`);
    if (a.description) lines.push(`    ${a.description}`);
    if (a.error) lines.push(`    unusable: ${a.error}`);
    if (a.limits) {
      lines.push('    limits');
      for (const [name, value] of Object.entries(a.limits))
        lines.push(`      ${name.padEnd(34)} ${formatLimit(name, value)}`);
    }
    if (a.capacity) {
      lines.push(
        `    batches  at k=${k}: up to ${a.capacity.shingles.toLocaleString('en')} shingles and ` +
          `${a.capacity.segments.toLocaleString('en')} segments per dispatch`,
      );
    }
    if (a.check) lines.push(...formatCheck(a.check));
  });
  lines.push('', `--backend auto would use: ${report.auto}`);
  if (!report.ok) lines.push('FAILED: an adapter signs differently from the CPU; use --backend cpu');
  else lines.push(missingRequiredGpu ? 'FAILED: no usable WebGPU adapter (--require-gpu)' : 'ok');
  return `${lines.join('\n')}\n`;
}

function formatCheck(c: SelfCheckResult): string[] {
  const verdict = (wrong: readonly string[]): string =>
    wrong.length === 0 ? 'equal to the CPU' : 'DIFFERENT from the CPU';
  return [
    `    parity   ${c.ok ? 'ok' : 'FAILED'} in ${Math.round(c.ms)} ms`,
    `      multiply-mod on ${c.mulmodCases.toLocaleString('en')} edge and random operands: ` +
      `${verdict(c.mulmodMismatches)}`,
    ...c.mulmodMismatches.map((m) => `        ${m}`),
    `      signatures of ${c.documents} random documents (${c.shingles.toLocaleString('en')} shingles), k=${c.k}, ` +
      `every scheme (classic, OPH, datasketch, SimHash): ${verdict(c.signatureMismatches)}`,
    ...c.signatureMismatches.map((m) => `        ${m}`),
  ];
}

const BYTE_LIMITS = new Set<string>(['maxStorageBufferBindingSize', 'maxBufferSize']);

function formatLimit(name: string, value: number): string {
  if (!BYTE_LIMITS.has(name)) return value.toLocaleString('en');
  const mib = value / 2 ** 20;
  return (
    `${value.toLocaleString('en')} bytes ` +
    `(${mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB` : `${mib.toFixed(0)} MiB`})`
  );
}
