/**
 * Minimal SVG building for the plots: strings only, no DOM, so the same code
 * draws in the browser app and writes files from the CLI. Presentation
 * attributes only (no style attributes): the app's Content-Security-Policy
 * forbids inline styles.
 */

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A number for coordinates: two decimals, no trailing zeros. */
export function num(x: number): string {
  return String(Math.round(x * 100) / 100);
}

export function element(name: string, attributes: Record<string, string | number>, children = ''): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeXml(typeof value === 'number' ? num(value) : value)}"`)
    .join('');
  return children === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${children}</${name}>`;
}

export function text(x: number, y: number, content: string, attributes: Record<string, string | number> = {}): string {
  return element('text', { x, y, 'font-size': 12, fill: '#333', ...attributes }, escapeXml(content));
}

/** The plot area inside margins, and the maps from data to pixels. */
export interface Frame {
  readonly width: number;
  readonly height: number;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

export const FRAME: Frame = { width: 520, height: 320, left: 52, right: 16, top: 36, bottom: 44 };

export function xScale(frame: Frame, from: number, to: number): (x: number) => number {
  const span = frame.width - frame.left - frame.right;
  return (x) => frame.left + ((x - from) / (to - from)) * span;
}

export function yScale(frame: Frame, from: number, to: number): (y: number) => number {
  const span = frame.height - frame.top - frame.bottom;
  return (y) => frame.height - frame.bottom - ((y - from) / (to - from)) * span;
}

/** The whole document: an accessible image with a title and a description. */
export function svgDocument(frame: Frame, title: string, description: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${frame.width}" height="${frame.height}" viewBox="0 0 ` +
    `${frame.width} ${frame.height}" ` +
    `role="img" font-family="system-ui, sans-serif">` +
    element('title', {}, escapeXml(title)) +
    element('desc', {}, escapeXml(description)) +
    element('rect', { x: 0, y: 0, width: frame.width, height: frame.height, fill: '#fff' }) +
    body +
    '</svg>\n'
  );
}

/** Axes with ticks at the given values; labels formatted by `format`. */
export function axes(
  frame: Frame,
  x: (v: number) => number,
  y: (v: number) => number,
  xTicks: readonly number[],
  yTicks: readonly number[],
  labels: { x: string; y: string },
  format: { x: (v: number) => string; y: (v: number) => string },
): string {
  const bottom = frame.height - frame.bottom;
  const parts: string[] = [
    element('line', { x1: frame.left, y1: bottom, x2: frame.width - frame.right, y2: bottom, stroke: '#333' }),
    element('line', { x1: frame.left, y1: frame.top, x2: frame.left, y2: bottom, stroke: '#333' }),
  ];
  for (const t of xTicks) {
    parts.push(element('line', { x1: x(t), y1: bottom, x2: x(t), y2: bottom + 4, stroke: '#333' }));
    parts.push(text(x(t), bottom + 16, format.x(t), { 'text-anchor': 'middle' }));
  }
  for (const t of yTicks) {
    parts.push(element('line', { x1: frame.left - 4, y1: y(t), x2: frame.left, y2: y(t), stroke: '#333' }));
    parts.push(element('line', { x1: frame.left, y1: y(t), x2: frame.width - frame.right, y2: y(t), stroke: '#eee' }));
    parts.push(text(frame.left - 7, y(t) + 4, format.y(t), { 'text-anchor': 'end' }));
  }
  parts.push(
    text((frame.left + frame.width - frame.right) / 2, frame.height - 8, labels.x, { 'text-anchor': 'middle' }),
  );
  parts.push(
    text(14, (frame.top + bottom) / 2, labels.y, {
      'text-anchor': 'middle',
      transform: `rotate(-90 14 ${num((frame.top + bottom) / 2)})`,
    }),
  );
  return parts.join('');
}
