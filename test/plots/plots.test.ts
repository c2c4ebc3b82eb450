/** The shared SVG plots: the curve's points are the S-curve's probabilities, the bins count every value once. */
import { describe, expect, it } from 'vitest';
import { candidateProbability, falseNegativeArea, falsePositiveArea } from '../../src/bands/lshParams.js';
import { binSimilarities, similarityHistogramSvg } from '../../src/plots/histogram.js';
import { sCurveSvg } from '../../src/plots/sCurve.js';
import { escapeXml, FRAME, xScale, yScale } from '../../src/plots/svg.js';
import { rng } from '../support/reference.js';

const attribute = (svg: string, selector: RegExp): string => {
  const match = selector.exec(svg);
  if (!match) throw new Error(`no match for ${selector}`);
  return match[1];
};

describe('S-curve', () => {
  it.each([
    [14, 9, 0.8],
    [9, 13, 0.8],
    [20, 5, 0.5],
    [1, 1, 0.3],
  ])('%i bands × %i rows at t = %f: every point lies on 1 − (1 − s^r)^b', (bands, rows, threshold) => {
    const svg = sCurveSvg({ bands, rows, threshold });
    const x = xScale(FRAME, 0, 1);
    const y = yScale(FRAME, 0, 1);
    const points = attribute(svg, /<polyline points="([^"]+)"/).split(' ');
    expect(points.length).toBeGreaterThan(150);
    for (const point of points) {
      const [px, py] = point.split(',').map(Number);
      const s = (px - FRAME.left) / (x(1) - x(0));
      expect(py).toBeCloseTo(y(candidateProbability(s, bands, rows)), 0);
    }
    expect(Number(attribute(svg, /data-threshold="([^"]+)"/))).toBe(threshold);
    expect(svg).toContain(`false positives ∫₀ᵗ P = ${falsePositiveArea(threshold, bands, rows).toFixed(4)}`);
    expect(svg).toContain(`false negatives ∫ₜ¹ 1−P = ${falseNegativeArea(threshold, bands, rows).toFixed(4)}`);
    expect(svg).toContain(`${bands} bands × ${rows} rows`);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/style=/); // the app's CSP forbids inline styles
  });
});

describe('similarity histogram', () => {
  it('counts every value in its 0.01 bin, 1.0 in the last', () => {
    const next = rng(7);
    const values = Float64Array.from({ length: 500 }, () => 0.75 + next() * 0.25);
    values[0] = 1;
    values[1] = 0.8;
    const { from, width, counts } = binSimilarities(values, 0.8);
    expect(from).toBe(0.75);
    expect(counts.length).toBe(25);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(values.length);
    for (let bin = 0; bin < counts.length; bin++) {
      const lo = from + bin * width;
      const expected = [...values].filter((v) =>
        bin === counts.length - 1 ? v >= lo - 1e-9 : v >= lo - 1e-9 && v < lo + width - 1e-9,
      ).length;
      expect(counts[bin], `bin ${lo.toFixed(2)}`).toBe(expected);
    }
    const svg = similarityHistogramSvg({ similarities: values, threshold: 0.8, measure: 'estimate' });
    const drawn = [...svg.matchAll(/data-count="(\d+)"/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    expect(drawn).toBe(values.length);
    expect(svg).toContain('500 verified pairs');
  });

  it('draws an empty run without bars', () => {
    const svg = similarityHistogramSvg({ similarities: [], threshold: 0.8, measure: 'exact Jaccard' });
    expect(svg).not.toContain('data-count');
    expect(svg).toContain('0 verified pairs');
  });

  it('escapes text', () => {
    expect(escapeXml(`<a href="x">&'`)).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;');
  });
});
