/**
 * The LSH S-curve: P(candidate) = 1 − (1 − s^r)^b against the Jaccard
 * similarity s, with the threshold and the two areas the parameter optimizer
 * weighs: false positives (pairs below the threshold that become candidates,
 * ∫₀ᵗ P) and false negatives (pairs above it that do not, ∫ₜ¹ 1 − P).
 * Used by the browser app (redrawn as the settings change) and by
 * `gpudedup params --plot` / `gpudedup dedup --plots`.
 */
import {
  approximateThreshold,
  candidateProbability,
  falseNegativeArea,
  falsePositiveArea,
} from '../bands/lshParams.js';
import { axes, element, FRAME, num, svgDocument, text, xScale, yScale, type Frame } from './svg.js';

export interface SCurveInput {
  readonly bands: number;
  readonly rows: number;
  readonly threshold: number;
}

export const FP_COLOUR = '#d9534f';
export const FN_COLOUR = '#f0ad4e';
const STEPS = 200;

export function sCurveSvg({ bands, rows, threshold }: SCurveInput): string {
  const frame = FRAME;
  const x = xScale(frame, 0, 1);
  const y = yScale(frame, 0, 1);
  const point = (s: number): string => `${num(x(s))},${num(y(candidateProbability(s, bands, rows)))}`;
  const curve = (from: number, to: number): string[] => {
    const points: string[] = [];
    const steps = Math.max(2, Math.ceil(STEPS * (to - from)));
    for (let i = 0; i <= steps; i++) points.push(point(from + ((to - from) * i) / steps));
    return points;
  };
  const below = curve(0, threshold);
  const above = curve(threshold, 1);
  // False positives: under the curve, left of the threshold. False negatives: above the curve (up to 1), right of it.
  const fpArea = `M${num(x(0))},${num(y(0))} L${below.join(' L')} L${num(x(threshold))},${num(y(0))} Z`;
  const fnArea = `M${num(x(threshold))},${num(y(1))} L${above.join(' L')} L${num(x(1))},${num(y(1))} Z`;
  const fp = falsePositiveArea(threshold, bands, rows);
  const fn = falseNegativeArea(threshold, bands, rows);
  const ticks = [0, 0.2, 0.4, 0.6, 0.8, 1];
  const body = [
    axes(
      frame,
      x,
      y,
      ticks,
      ticks,
      { x: 'Jaccard similarity s', y: 'P(candidate)' },
      { x: (v) => v.toFixed(1), y: (v) => v.toFixed(1) },
    ),
    element('path', { d: fpArea, fill: FP_COLOUR, 'fill-opacity': 0.35, 'data-area': 'false-positive' }),
    element('path', { d: fnArea, fill: FN_COLOUR, 'fill-opacity': 0.35, 'data-area': 'false-negative' }),
    element('polyline', {
      points: [...below, ...above.slice(1)].join(' '),
      fill: 'none',
      stroke: '#1f5fa8',
      'stroke-width': 2,
      'data-curve': 's-curve',
    }),
    thresholdMarks(frame, x, y, { bands, rows, threshold }),
    legend(frame.left + 12, frame.top + 8, fp, fn), // top left: the curve is near 0 there for any useful banding
  ].join('');
  return svgDocument(
    frame,
    `S-curve of ${bands} bands × ${rows} rows at threshold ${threshold}`,
    `Probability that a pair of Jaccard similarity s becomes a candidate; false-positive area ${fp.toFixed(4)}, ` +
      `false-negative area ${fn.toFixed(4)}.`,
    body,
  );
}

/** The threshold's dashed line and label, and the title: the banding, P(t) and the curve's midpoint. */
function thresholdMarks(
  frame: Frame,
  x: (v: number) => number,
  y: (v: number) => number,
  { bands, rows, threshold }: SCurveInput,
): string {
  const atThreshold = candidateProbability(threshold, bands, rows);
  return [
    element('line', {
      x1: x(threshold),
      y1: y(0),
      x2: x(threshold),
      y2: y(1),
      stroke: '#333',
      'stroke-dasharray': '4 3',
      'data-threshold': threshold,
    }),
    text(x(threshold) + 4, frame.top + 12, `t = ${threshold}`, {}),
    text(
      frame.left,
      16,
      `${bands} bands × ${rows} rows: P(t) = ${atThreshold.toFixed(3)}, midpoint ≈ ` +
        `${approximateThreshold(bands, rows).toFixed(3)}`,
      {
        'font-size': 13,
        'font-weight': 'bold',
      },
    ),
  ].join('');
}

function legend(left: number, top: number, fp: number, fn: number): string {
  return [
    element('rect', { x: left, y: top, width: 12, height: 12, fill: FP_COLOUR, 'fill-opacity': 0.35 }),
    text(left + 18, top + 10, `false positives ∫₀ᵗ P = ${fp.toFixed(4)}`),
    element('rect', { x: left, y: top + 18, width: 12, height: 12, fill: FN_COLOUR, 'fill-opacity': 0.35 }),
    text(left + 18, top + 28, `false negatives ∫ₜ¹ 1−P = ${fn.toFixed(4)}`),
  ].join('');
}
