/** `gpudedup params`: which bands and rows a threshold gets, and what that means for recall. */
import { counted, thousands } from '../format.js';
import { type Command, InvalidArgumentError } from 'commander';
import {
  approximateThreshold,
  candidateProbability,
  checkParams,
  checkThreshold,
  falseNegativeArea,
  falsePositiveArea,
  optimalParams,
  type LshParams,
  DEFAULT_RECALL_AT_THRESHOLD,
  defaultRecallAtThreshold,
  type OptimizerWeights,
} from '../bands/lshParams.js';
import { tableOption } from './options.js';
import type { OptionValues } from '../options.js';
import { SIZE_UNITS } from '../optionChecks.js';
import { writeTextFile } from '../formats/files/textFile.js';
import { checkOutputs } from '../pipeline/shared/outputChecks.js';
import { sCurveSvg } from '../plots/sCurve.js';
import { simhashParams } from '../bands/simhashBands.js';
import { addSimhashOptions, simhashParamsText } from './simhashOptions.js';

export function nonNegative(value: string): number {
  const n = Number(value);
  if (!(n >= 0) || !Number.isFinite(n)) throw new InvalidArgumentError('expected a non-negative number');
  return n;
}

/** A size in bytes: 512MB, 6GiB, 1.5G (KB/MB/GB are powers of 1000, K/M/G and KiB/MiB/GiB of 1024). */
export function byteSize(value: string): number {
  const match = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = match && SIZE_UNITS[match[2].toLowerCase()];
  if (!match || unit === undefined || unit === null)
    throw new InvalidArgumentError('expected a size such as 512MB, 6GiB or 1.5G');
  const bytes = Math.round(Number(match[1]) * unit);
  if (bytes < 2 ** 20) throw new InvalidArgumentError('expected at least 1 MiB');
  return bytes;
}

/** The LSH flags as the option table types them (src/options.ts). */
export type LshCliOptions = Pick<OptionValues, 'threshold' | 'fpWeight' | 'fnWeight'> &
  Partial<Pick<OptionValues, 'bands' | 'rows' | 'recallAtThreshold'>>;

export function addLshOptions(command: Command): Command {
  return command
    .addOption(
      tableOption('threshold', '-t, --threshold <t>', 'Jaccard similarity from which documents are near-duplicates'),
    )
    .addOption(tableOption('bands', '--bands <b>', 'LSH bands (with --rows; default: optimized for the threshold)'))
    .addOption(tableOption('rows', '--rows <r>', 'rows (slots) per band (with --bands)'))
    .addOption(
      tableOption('fpWeight', '--fp-weight <w>', 'optimizer weight of the false-positive area below the threshold'),
    )
    .addOption(
      tableOption('fnWeight', '--fn-weight <w>', 'optimizer weight of the false-negative area above the threshold'),
    )
    .addOption(
      tableOption(
        'recallAtThreshold',
        '--recall-at-threshold <p>',
        `least candidate probability at the threshold the optimizer may choose (default ` +
          `${DEFAULT_RECALL_AT_THRESHOLD}, or the most k reaches, with --verify exact or hybrid; 0 otherwise)`,
      ),
    );
}

/**
 * The recall target at t: given, else the default for k (defaultRecallAtThreshold) where verification computes
 * exact Jaccard (hybrid, exact), else none.
 */
export function recallTarget(options: LshCliOptions, k: number, exactVerification: boolean): number {
  return options.recallAtThreshold ?? defaultRecallAtThreshold(options.threshold, k, exactVerification);
}

/** --bands/--rows when given (both), else the optimizer's choice for the threshold and k (and the recall target). */
export function lshParamsFrom(options: LshCliOptions, k: number, exactVerification = true): LshParams {
  checkThreshold(options.threshold);
  if ((options.bands === undefined) !== (options.rows === undefined))
    throw new RangeError('--bands and --rows go together: give both or neither');
  if (options.bands !== undefined && options.rows !== undefined) {
    const params = { bands: options.bands, rows: options.rows };
    checkParams(params, k);
    return params;
  }
  const weights: OptimizerWeights = { falsePositive: options.fpWeight, falseNegative: options.fnWeight };
  const best = optimalParams(options.threshold, k, weights, recallTarget(options, k, exactVerification));
  return { bands: best.bands, rows: best.rows };
}

type ParamsCliOptions = LshCliOptions & { k: number; json: boolean; plot?: string; maxHamming: number };

/** `params --max-hamming h`: SimHash's block tables and Hamming against cosine (simhashOptions.ts). */
function printSimhashParams(options: ParamsCliOptions): void {
  const p = simhashParams(options.maxHamming);
  process.stdout.write(options.json ? JSON.stringify(p, null, 2) + '\n' : simhashParamsText(options.maxHamming) + '\n');
}

const TABLE = [0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1];

export function registerParamsCommand(program: Command): void {
  const command = program
    .command('params')
    .description(
      'show the LSH bands and rows for a threshold, and the candidate probability at a table of similarities',
    )
    .addOption(tableOption('k', '-k, --k <hashes>', 'hash functions per signature'))
    .option('--json', 'print JSON instead of text', false)
    .option(
      '--plot <file.svg>',
      'also write the S-curve with the threshold and the false-positive / false-negative areas as SVG',
    );
  addSimhashOptions(command, 'explain SimHash instead: its block tables and Hamming against cosine');
  addLshOptions(command).action(paramsAction);
}

async function paramsAction(options: ParamsCliOptions, cmd: Command): Promise<void> {
  if (cmd.getOptionValueSource('maxHamming') === 'cli') return printSimhashParams(options);
  if (options.plot !== undefined) await checkOutputs([{ flag: '--plot', path: options.plot }], []);
  const { bands, rows } = lshParamsFrom(options, options.k);
  const t = options.threshold;
  const similarities = [...new Set([...TABLE, t])].sort((a, b) => a - b);
  const result = {
    k: options.k,
    threshold: t,
    bands,
    rows,
    slotsUsed: bands * rows,
    approximateThreshold: approximateThreshold(bands, rows),
    falseNegativeRateAtThreshold: 1 - candidateProbability(t, bands, rows),
    falsePositiveArea: falsePositiveArea(t, bands, rows),
    falseNegativeArea: falseNegativeArea(t, bands, rows),
    weights: { falsePositive: options.fpWeight, falseNegative: options.fnWeight },
    recallAtThreshold: recallTarget(options, options.k, true),
    candidateProbability: similarities.map((s) => ({
      similarity: s,
      probability: candidateProbability(s, bands, rows),
    })),
  };
  if (options.plot !== undefined) await writeTextFile(options.plot, sCurveSvg({ bands, rows, threshold: t }));
  if (options.json) {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return;
  }
  const given = options.bands !== undefined;
  const lines = [
    `k = ${options.k}, threshold = ${t}: ${counted(bands, 'band')} × ${counted(rows, 'row')} ` +
      `(${thousands(bands * rows)} of ${counted(options.k, 'slot')})` +
      (given
        ? ' (as given)'
        : ` (weights fp ${options.fpWeight}, fn ${options.fnWeight}, P ≥ ${result.recallAtThreshold} at the threshold)`),
    `approximate threshold (1/b)^(1/r) = ${result.approximateThreshold.toFixed(4)}`,
    `expected false-negative rate at the threshold: ${result.falseNegativeRateAtThreshold.toFixed(4)}`,
    `false-positive area ∫₀ᵗ P = ${result.falsePositiveArea.toFixed(5)}, false-negative area ∫ₜ¹ (1 − P) = ` +
      `${result.falseNegativeArea.toFixed(5)}`,
    '',
    'similarity  P(candidate) = 1 − (1 − s^r)^b',
    ...result.candidateProbability.map(
      ({ similarity, probability }) => `${similarity.toFixed(2).padStart(10)}  ${probability.toFixed(4)}`,
    ),
  ];
  process.stdout.write(lines.join('\n') + '\n');
}
