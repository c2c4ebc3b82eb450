/**
 * The "H200" section of bench/RESULTS.md, from the device check's summary.json
 * (bench/deviceCheck.ts): the section between the two markers is replaced, or
 * appended with its heading where the file has none.
 *
 *   node dist/bench/renderDeviceResults.js SUMMARY.json [--results bench/RESULTS.md] [--allow-software]
 *   node dist/bench/renderDeviceResults.js --not-measured [--date YYYY-MM-DD] [--results FILE]
 *
 * A summary whose adapter is a software one (the lavapipe rehearsal) is refused
 * unless --allow-software: the section is for a real GPU's numbers.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { DeviceSummary } from './deviceCheck.js';

export const SECTION_START =
  '<!-- device-check:start (rendered by bench/renderDeviceResults.ts from scripts/device/check.sh) -->';
export const SECTION_END = '<!-- device-check:end -->';
export const HEADING = '## H200: the device check (`scripts/device/check.sh`)';

const giga = (x: number): string => `${(x / 1e9).toFixed(x >= 1e11 ? 0 : 1)} G`;
const mega = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly boolean[] = [],
): string[] {
  return [
    `| ${head.join(' | ')} |`,
    `| ${head.map((_, i) => (right[i] ? '--:' : '---')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
}

export function notMeasuredSection(date: string): string {
  return [
    `Not yet measured: no GPU lent so far (as of ${date}).`,
    '',
    'When a GPU machine is lent, `bash scripts/device/check.sh` (docs/benchmarks.md: "Checking on a GPU machine")',
    'measures the numbers this section holds: `gpudedup doctor`, `gpudedup bench` on ≥ 1 GB of',
    'generated real text (all cores against the GPU), the signing kernel against its integer-multiply',
    'roofline, the host feed rate, and a whole `dedup` on `--backend webgpu` and `--backend cpu`. Its',
    'rehearsal on lavapipe runs in CI (test/scripts/device.test.ts).',
  ].join('\n');
}

function machineLines(s: DeviceSummary): string[] {
  const m = s.machine;
  const g = s.gpu;
  const bundle = s.bundle as { commit?: string; dirty?: boolean } | undefined;
  const gpu = g
    ? `${g.name}${g.smCount ? `, ${g.smCount} SMs (${g.smCountSource === 'torch' ? 'PyTorch' : 'by name'})` : ''}${g.maxSmClockMHz ? `, max SM clock ${g.maxSmClockMHz} MHz` : ''}${g.driver ? `, driver ${g.driver}` : ''}${g.memoryMiB ? `, ${(g.memoryMiB / 1024).toFixed(0)} GiB` : ''}`
    : 'no NVIDIA GPU seen (nvidia-smi)';
  const corpus = s.corpus
    ? `${s.corpus.documents.toLocaleString('en-US')} documents, ${(s.corpus.bytes / 1e9).toFixed(2)} GB of JSON Lines (bench/scaleCorpus.ts, ${s.corpus.files} parts, generated in ${s.corpus.seconds} s)`
    : 'not generated';
  return [
    `Run of ${s.started.slice(0, 10)} (${s.started.slice(11, 16)} UTC)${bundle?.commit ? `, bundle from commit ${bundle.commit.slice(0, 10)}${bundle.dirty ? ' with uncommitted changes' : ''}` : ''}, budget ${s.check.budgetSeconds} s.`,
    '',
    `- GPU: ${gpu}; adapter: ${s.adapter ? `${s.adapter.description}${s.adapter.parity ? ', parity with the CPU passed' : ', **parity with the CPU failed**'}` : 'none found'}${s.vkDriverFiles ? ` (through VK_DRIVER_FILES=${s.vkDriverFiles})` : ''}; Vulkan loader ${s.loader ?? 'system'}.`,
    `- Host: ${m.cpu}, ${m.cores} cores, ${(m.memoryBytes / 2 ** 30).toFixed(0)} GiB, Node ${m.node}, kernel ${m.kernel}.`,
    `- Corpus: ${corpus}.`,
  ];
}

function benchLines(s: DeviceSummary): string[] {
  const b = s.bench;
  if (!b) return ['Signing (`gpudedup bench`): not measured.'];
  const rows = b.rows.map((r) => [r.backend, r.seconds.toFixed(3), giga(r.evaluationsPerSecond), mega(r.mbPerSecond)]);
  return [
    `Signing, \`gpudedup bench --no-single-thread --runs ${b.runs}\` on the corpus (${b.shingles.toLocaleString('en-US')} shingles, k = 128: ${giga(b.evaluations)} evaluations), median of ${b.runs} after a warm-up; signatures equal word for word:`,
    '',
    ...table(['backend', 'seconds', 'evaluations/s', 'MB/s'], rows, [false, true, true, true]),
    ...(b.gpuOverCpu === undefined
      ? []
      : ['', `GPU over the CPU on ${b.cpuThreads ?? '?'} threads: **${b.gpuOverCpu.toFixed(2)}×**.`]),
  ];
}

function rooflineLines(s: DeviceSummary): string[] {
  const r = s.roofline;
  if (!r) return ['Roofline: not computed (no NVIDIA GPU seen, or no WebGPU row).'];
  return [
    `Roofline (bench/deviceRoofline.ts): ${r.formula} = ${r.smCount} × ${r.maxSmClockMHz} MHz × 64 ÷ ${r.multipliesPerEvaluation} = **${giga(r.evaluationsPerSecond)} evaluations/s**.`,
    `The WebGPU row (upload, kernel and readback of the whole corpus) reached ${giga(r.measuredEvaluationsPerSecond)}/s: **${(100 * r.shareOfRoofline).toFixed(1)} %** of it,`,
    `and ${(100 * r.shareOfIntegerOpsBound).toFixed(1)} % of the all-integer-operations bound (142 operations per evaluation at 128 per clock per SM: ${giga(r.integerOpsBound)}/s).`,
  ];
}

function dedupLines(s: DeviceSummary): string[] {
  const runs = (['webgpu', 'cpu'] as const).filter((b) => s.dedup[b]).map((b) => [b, s.dedup[b]!] as const);
  if (runs.length === 0) return ['Whole `dedup`: not measured.'];
  const stages = [...new Set(runs.flatMap(([, r]) => Object.keys(r.stages)))];
  const rows = runs.map(([flag, r]) => [
    `\`--backend ${flag}\` (${r.backend})`,
    r.seconds.toFixed(1),
    mega(r.mbPerSecond),
    `${((100 * r.removed) / Math.max(1, r.documents)).toFixed(1)} %`,
    ...stages.map((k) => (r.stages[k] === undefined ? '' : r.stages[k].toFixed(1))),
  ]);
  return [
    'Whole `gpudedup dedup CORPUS -o kept.jsonl --report …` of the corpus, defaults otherwise (stage times from `--report`, seconds):',
    '',
    ...table(['run', 'seconds', 'MB/s', 'removed', ...stages], rows, [
      false,
      true,
      true,
      true,
      ...stages.map(() => true),
    ]),
  ];
}

function feedLine(s: DeviceSummary): string {
  const f = s.feedRate;
  if (!f) return 'Host feed rate: not measured.';
  return `Host feed rate (${f.what}): ${mega(f.perCoreMBps)} MB/s on one core, **${mega(f.allCoresMBps)} MB/s on ${f.threads} threads**.`;
}

/** The section's Markdown (between the markers) for one summary. */
export function renderDeviceSection(s: DeviceSummary): string {
  const targets = table(
    ['target', 'measured', 'met'],
    s.targets.map((t) => [t.target, t.measured, t.met === null ? 'not judged' : t.met ? 'yes' : 'no']),
  );
  const steps = table(
    ['step', 'status', 'seconds', 'note'],
    s.steps.map((t) => [t.name, t.status, t.seconds.toFixed(1), t.note ?? '']),
    [false, false, true, false],
  );
  return [
    ...machineLines(s),
    '',
    ...targets,
    '',
    ...benchLines(s),
    '',
    ...rooflineLines(s),
    '',
    feedLine(s),
    '',
    ...dedupLines(s),
    '',
    'Steps (each time-boxed; summary.json, check.log and the reports came back from $OUT):',
    '',
    ...steps,
  ].join('\n');
}

/** `markdown` with the section between the markers replaced by `section` (appended, with its heading, when absent). */
export function replaceSection(markdown: string, section: string): string {
  const block = `${SECTION_START}\n${section.trimEnd()}\n${SECTION_END}`;
  const start = markdown.indexOf(SECTION_START);
  const end = markdown.indexOf(SECTION_END);
  if (start >= 0 && end > start) return markdown.slice(0, start) + block + markdown.slice(end + SECTION_END.length);
  if (start >= 0 || end >= 0)
    throw new Error('bench/RESULTS.md: only one of the device-check markers is there; fix the file by hand');
  return `${markdown.trimEnd()}\n\n${HEADING}\n\n${block}\n`;
}

function main(argv: readonly string[]): void {
  const value = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const results = value('--results') ?? 'bench/RESULTS.md';
  let section: string;
  if (argv.includes('--not-measured')) {
    section = notMeasuredSection(value('--date') ?? new Date().toISOString().slice(0, 10));
  } else {
    const path = argv.find((a, i) => !a.startsWith('--') && !['--results', '--date'].includes(argv[i - 1] ?? ''));
    if (!path)
      throw new RangeError(
        'usage: node dist/bench/renderDeviceResults.js SUMMARY.json [--results FILE] [--allow-software] | --not-measured [--date D]',
      );
    const summary = JSON.parse(readFileSync(path, 'utf8')) as DeviceSummary;
    if (summary.schema !== 'gpudedup-device-check/1')
      throw new Error(`${path}: not a device check summary (schema ${String(summary.schema)})`);
    if (summary.adapter?.software !== false && !argv.includes('--allow-software')) {
      throw new Error(
        `${path}: ${summary.adapter ? `its adapter is a software one (${summary.adapter.description})` : 'no GPU adapter was found'}; the section takes a GPU's run (--allow-software to render it anyway)`,
      );
    }
    section = renderDeviceSection(summary);
  }
  const updated = replaceSection(readFileSync(results, 'utf8'), section);
  writeFileSync(`${results}.partial`, updated);
  renameSync(`${results}.partial`, results);
  console.log(`${results}: H200 section rendered`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`renderDeviceResults: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
