/**
 * Signing throughput per backend (`gpudedup bench --plot`): one horizontal bar
 * per backend, hash evaluations per second, the min–max spread of its runs as
 * a whisker. Horizontal, so that long backend names fit as labels.
 */
import { element, svgDocument, text, xScale, type Frame } from './svg.js';

export interface ThroughputBar {
  readonly backend: string;
  /** Median rate. */
  readonly perSecond: number;
  /** Rates of the slowest and the fastest run. */
  readonly low: number;
  readonly high: number;
}

const BAR = 26;
/** Characters of a backend's name that fit left of the bars. */
const LABEL = 46;

export function throughputSvg(bars: readonly ThroughputBar[], unit: string, title: string): string {
  const frame: Frame = { width: 720, height: 36 + bars.length * BAR + 44, left: 300, right: 24, top: 36, bottom: 44 };
  const peak = Math.max(1e-9, ...bars.map((b) => b.high));
  const x = xScale(frame, 0, peak * 1.05);
  const bottom = frame.height - frame.bottom;
  const parts: string[] = [text(12, 20, title, { 'font-size': 13, 'font-weight': 'bold' })];
  bars.forEach((bar, i) => {
    const top = frame.top + i * BAR;
    const middle = top + BAR / 2;
    parts.push(
      text(
        frame.left - 8,
        middle + 4,
        bar.backend.length > LABEL ? `${bar.backend.slice(0, LABEL - 1)}…` : bar.backend,
        { 'text-anchor': 'end' },
      ),
    );
    parts.push(
      element('rect', {
        x: x(0),
        y: top + 4,
        width: Math.max(1, x(bar.perSecond) - x(0)),
        height: BAR - 8,
        fill: '#1f5fa8',
        'data-backend': bar.backend,
        'data-rate': bar.perSecond,
      }),
    );
    parts.push(
      element('line', {
        x1: x(bar.low),
        y1: middle,
        x2: x(bar.high),
        y2: middle,
        stroke: '#d9534f',
        'stroke-width': 2,
      }),
    );
    parts.push(text(x(bar.perSecond) + 4, middle + 4, shortNumber(bar.perSecond), { 'font-size': 11 }));
  });
  parts.push(
    element('line', { x1: frame.left, y1: bottom, x2: frame.width - frame.right, y2: bottom, stroke: '#333' }),
  );
  for (let i = 0; i <= 4; i++) {
    const v = (peak * 1.05 * i) / 4;
    parts.push(element('line', { x1: x(v), y1: bottom, x2: x(v), y2: bottom + 4, stroke: '#333' }));
    parts.push(text(x(v), bottom + 16, shortNumber(v), { 'text-anchor': 'middle' }));
  }
  parts.push(text((frame.left + frame.width - frame.right) / 2, frame.height - 8, unit, { 'text-anchor': 'middle' }));
  return svgDocument(
    frame,
    title,
    `Horizontal bars: median ${unit} per backend; whiskers span the slowest to the fastest run.`,
    parts.join(''),
  );
}

/** 1.2 G, 340 M, 5.6 k. */
export function shortNumber(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} k`;
  return n.toFixed(n >= 10 ? 0 : 1);
}
