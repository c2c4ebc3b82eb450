/**
 * The ceilings the device check (bench/deviceCheck.ts) holds the signing
 * kernel to, and the targets of issue 23. Pure functions: the check and the
 * renderer of bench/RESULTS.md's H200 section share them.
 *
 * Integer-multiply roofline of an NVIDIA GPU, in hash evaluations per second:
 *
 *   SMs × max SM clock × 64 int32 multiplies per clock per SM ÷ 16 multiplies per evaluation
 *
 * - 64: the CUDA C++ Programming Guide's table of arithmetic instruction
 *   throughput gives 64 results per clock per multiprocessor for 32-bit integer
 *   multiply and multiply-add on compute capability 7.x to 9.0 (the H100/H200).
 * - 16: one evaluation of shaders/minhash.wgsl is four 32×32→64 products built
 *   from 16-bit limbs, four u32 multiplies each (bench/RESULTS.md, "What limits
 *   the kernel"); WGSL has no wider multiply.
 * - For the H200 SXM: 132 SMs × 1,980 MHz × 64 ÷ 16 = 1.05 T evaluations/s.
 *
 * The same evaluation is about 142 integer operations in all, so the multiply
 * roofline is not the binding one: at most 128 integer operations per clock per
 * SM issue (the integer ALU pipe and the multiply-add pipe, 64 each), which
 * caps the kernel at SMs × clock × 128 ÷ 142, 0.24 T/s on the H200. Both are
 * reported; the target is against the first.
 */

export const MULTIPLIES_PER_EVALUATION = 16;
export const INTEGER_OPS_PER_EVALUATION = 142;
export const INT32_MULTIPLIES_PER_CLOCK_PER_SM = 64;
export const INTEGER_OPS_PER_CLOCK_PER_SM = 128;

/** Multiprocessors of the GPUs the check may meet, by the name nvidia-smi prints, when no other source answers. */
const KNOWN_SM_COUNTS: ReadonlyArray<readonly [RegExp, number]> = [
  [/\bH200\b/, 132],
  [/\bH100\b.*\bPCIe\b/, 114],
  [/\bH100\b/, 132],
  [/\bA100\b/, 108],
];

export function knownSmCount(name: string): number | undefined {
  return KNOWN_SM_COUNTS.find(([pattern]) => pattern.test(name))?.[1];
}

export interface Roofline {
  readonly formula: string;
  readonly smCount: number;
  readonly maxSmClockMHz: number;
  readonly multipliesPerEvaluation: number;
  /** The integer-multiply roofline, evaluations/s. */
  readonly evaluationsPerSecond: number;
  /** The all-integer-operations bound, evaluations/s. */
  readonly integerOpsBound: number;
  /** What was measured against them: the WebGPU row of `gpudedup bench` (upload + kernel + readback). */
  readonly measuredEvaluationsPerSecond: number;
  readonly shareOfRoofline: number;
  readonly shareOfIntegerOpsBound: number;
}

export function roofline(smCount: number, maxSmClockMHz: number, measuredEvaluationsPerSecond: number): Roofline {
  const clocks = smCount * maxSmClockMHz * 1e6;
  const evaluationsPerSecond = (clocks * INT32_MULTIPLIES_PER_CLOCK_PER_SM) / MULTIPLIES_PER_EVALUATION;
  const integerOpsBound = (clocks * INTEGER_OPS_PER_CLOCK_PER_SM) / INTEGER_OPS_PER_EVALUATION;
  return {
    formula: `SMs × max SM clock × ${INT32_MULTIPLIES_PER_CLOCK_PER_SM} int32 multiplies/clock/SM ÷ ${MULTIPLIES_PER_EVALUATION} multiplies/evaluation`,
    smCount,
    maxSmClockMHz,
    multipliesPerEvaluation: MULTIPLIES_PER_EVALUATION,
    evaluationsPerSecond,
    integerOpsBound,
    measuredEvaluationsPerSecond,
    shareOfRoofline: measuredEvaluationsPerSecond / evaluationsPerSecond,
    shareOfIntegerOpsBound: measuredEvaluationsPerSecond / integerOpsBound,
  };
}

export interface Target {
  readonly target: string;
  /** The measured figure in words, or why there is none. */
  readonly measured: string;
  /** null: not measured in this run. */
  readonly met: boolean | null;
}

export interface TargetInputs {
  readonly roofline?: Roofline;
  readonly gpuOverCpuSigning?: number;
  readonly cpuThreads?: number;
  readonly corpusBytes?: number;
  readonly webgpuDedupMBps?: number;
  readonly feedAllCoresMBps?: number;
  readonly feedPerCoreMBps?: number;
}

const fixed = (x: number, digits = 1): string => x.toFixed(digits);

/** Issue 23's targets (and issue 18's feed rate), judged on what this run measured. */
export function judgeTargets(m: TargetInputs): Target[] {
  const gb = m.corpusBytes === undefined ? undefined : m.corpusBytes / 1e9;
  // The targets name 16 cores: on fewer (the rehearsal) the figure is recorded, not judged.
  const sixteen = (met: boolean): boolean | null => ((m.cpuThreads ?? 0) >= 16 ? met : null);
  return [
    m.roofline
      ? {
          target: 'signing kernel ≥ 50 % of its integer-multiply roofline',
          measured: `${fixed(100 * m.roofline.shareOfRoofline)} % (${fixed(m.roofline.measuredEvaluationsPerSecond / 1e9)} G of ${fixed(m.roofline.evaluationsPerSecond / 1e9)} G evaluations/s)`,
          met: m.roofline.shareOfRoofline >= 0.5,
        }
      : {
          target: 'signing kernel ≥ 50 % of its integer-multiply roofline',
          measured: 'not measured (no NVIDIA GPU seen, or no WebGPU row)',
          met: null,
        },
    m.webgpuDedupMBps !== undefined && gb !== undefined
      ? {
          target: 'dedup of ≥ 1 GB of JSON Lines end to end ≥ 500 MB/s (--backend webgpu)',
          measured: `${fixed(m.webgpuDedupMBps)} MB/s on ${fixed(gb, 2)} GB`,
          met: gb >= 1 ? m.webgpuDedupMBps >= 500 : null,
        }
      : {
          target: 'dedup of ≥ 1 GB of JSON Lines end to end ≥ 500 MB/s (--backend webgpu)',
          measured: 'not measured',
          met: null,
        },
    m.gpuOverCpuSigning !== undefined
      ? {
          target: 'GPU ≥ 10× the 16-core CPU path on signing',
          measured: `${fixed(m.gpuOverCpuSigning, 2)}× (CPU on ${m.cpuThreads ?? '?'} threads)`,
          met: sixteen(m.gpuOverCpuSigning >= 10),
        }
      : { target: 'GPU ≥ 10× the 16-core CPU path on signing', measured: 'not measured', met: null },
    m.feedAllCoresMBps !== undefined
      ? {
          target: 'host feed ≥ 50 MB/s per core, ≥ 800 MB/s on 16 cores (issue 18)',
          measured: `${m.feedPerCoreMBps === undefined ? '?' : fixed(m.feedPerCoreMBps)} MB/s per core, ${fixed(m.feedAllCoresMBps)} MB/s on all ${m.cpuThreads ?? '?'}`,
          met: sixteen((m.feedPerCoreMBps ?? 0) >= 50 && m.feedAllCoresMBps >= 800),
        }
      : {
          target: 'host feed ≥ 50 MB/s per core, ≥ 800 MB/s on 16 cores (issue 18)',
          measured: 'not measured',
          met: null,
        },
  ];
}
