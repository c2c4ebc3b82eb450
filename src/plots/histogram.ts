/**
 * A histogram of the similarities of verified pairs (estimate or exact
 * Jaccard), with the threshold marked. Bins are 0.01 wide from just below the
 * smallest value (or the threshold) up to 1.
 */
import { axes, element, FRAME, svgDocument, text, xScale, yScale } from './svg.js';
import type { VerifiedPairs } from '../verify/verification.js';

export interface HistogramInput {
  readonly similarities: ArrayLike<number>;
  readonly threshold: number;
  /** What the values are, e.g. "estimate" or "exact Jaccard". */
  readonly measure: string;
}

export interface Bins {
  readonly from: number;
  readonly width: number;
  readonly counts: number[];
}

/** 0.01-wide bins from floor(min(values, threshold) · 20) / 20 to 1; value 1 goes in the last bin. */
export function binSimilarities(all: ArrayLike<number>, threshold: number, width = 0.01): Bins {
  // NaN: not measured (hybrid's exact where the estimate decided)
  const values = Array.from(all).filter((v) => !Number.isNaN(v));
  let min = threshold;
  for (let i = 0; i < values.length; i++) min = Math.min(min, values[i]);
  const from = Math.max(0, Math.floor(min * 20) / 20);
  const bins = Math.max(1, Math.round((1 - from) / width));
  const counts = new Array<number>(bins).fill(0);
  for (let i = 0; i < values.length; i++)
    counts[Math.min(bins - 1, Math.max(0, Math.floor((values[i] - from) / width + 1e-9)))]++;
  return { from, width, counts };
}

/**
 * The histogram of a run's verified pairs: exact Jaccard when it is known for every pair, else the signature estimate.
 */
export function verifiedPairsHistogram(
  verified: Pick<VerifiedPairs, 'estimate' | 'exact'>,
  threshold: number,
): HistogramInput {
  const exactForAll = verified.exact?.every((x) => !Number.isNaN(x));
  return exactForAll
    ? { similarities: verified.exact!, threshold, measure: 'exact Jaccard' }
    : { similarities: verified.estimate, threshold, measure: 'estimate' };
}

export function similarityHistogramSvg({ similarities, threshold, measure }: HistogramInput): string {
  const frame = FRAME;
  const { from, width, counts } = binSimilarities(similarities, threshold);
  const peak = Math.max(1, ...counts);
  const x = xScale(frame, from, 1);
  const y = yScale(frame, 0, peak);
  const bars = counts
    .map((count, i) =>
      count === 0
        ? ''
        : element('rect', {
            x: x(from + i * width) + 0.5,
            y: y(count),
            width: Math.max(1, x(from + (i + 1) * width) - x(from + i * width) - 1),
            height: y(0) - y(count),
            fill: '#1f5fa8',
            'data-bin': (from + i * width).toFixed(2),
            'data-count': count,
          }),
    )
    .join('');
  const xTicks = Array.from(
    { length: Math.round((1 - from) / 0.05) + 1 },
    (_, i) => Math.round((from + i * 0.05) * 100) / 100,
  ).filter((_, i, all) => all.length <= 11 || i % 2 === 0);
  const yTicks = niceTicks(peak);
  const body = [
    axes(
      frame,
      x,
      y,
      xTicks,
      yTicks,
      { x: `similarity (${measure})`, y: 'verified pairs' },
      { x: (v) => v.toFixed(2), y: (v) => String(v) },
    ),
    bars,
    element('line', {
      x1: x(threshold),
      y1: y(0),
      x2: x(threshold),
      y2: y(peak),
      stroke: '#d9534f',
      'stroke-dasharray': '4 3',
      'data-threshold': threshold,
    }),
    text(x(threshold) + 4, frame.top + 12, `t = ${threshold}`),
    text(frame.left, 16, `${similarities.length.toLocaleString('en-US')} verified pairs by similarity (${measure})`, {
      'font-size': 13,
      'font-weight': 'bold',
    }),
  ].join('');
  return svgDocument(
    frame,
    `Similarity of ${similarities.length} verified pairs (${measure})`,
    `Histogram in bins of ${width} from ${from.toFixed(2)} to 1; threshold ${threshold}.`,
    body,
  );
}

/** 0 and up to five round steps up to `peak`. */
function niceTicks(peak: number): number[] {
  const raw = peak / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? magnitude * 10);
  const ticks: number[] = [];
  for (let t = 0; t <= peak; t += step) ticks.push(t);
  return ticks;
}
