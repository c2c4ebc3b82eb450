// The progress bars write counts as every other line does: with thousands separators.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stageBar } from '../../src/cli/progress.js';

/** A terminal that keeps what is drawn on it, escape codes stripped. */
function terminal(): { stream: NodeJS.WriteStream; text: () => string } {
  const chunks: string[] = [];
  const writable = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const stream = Object.assign(writable, { isTTY: true, columns: 200 }) as unknown as NodeJS.WriteStream;
  // eslint-disable-next-line no-control-regex
  return { stream, text: () => chunks.join('').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '') };
}

describe('progress bars', () => {
  it('over bytes: documents and megabytes with thousands separators', () => {
    const { stream, text } = terminal();
    const bar = stageBar('signing', 4e9, 'bytes', false, stream);
    bar.update(1_234_567, 2_345_678_901);
    bar.stop();
    expect(text()).toContain('| 1,234,567 docs |');
  });

  it('over bytes of standard input (no total): megabytes read with separators', () => {
    const { stream, text } = terminal();
    const bar = stageBar('signing', undefined, 'bytes', false, stream);
    bar.update(12_345, 2_345_678_901);
    bar.stop();
    expect(text()).toMatch(/\| 12,345 docs \| 2,345\.7 MB \|/);
  });

  it('over items: done and total with separators', () => {
    const { stream, text } = terminal();
    const bar = stageBar('verification', 100_000, 'items', false, stream);
    bar.update(86_246);
    bar.stop();
    expect(text()).toContain('86,246/100,000');
  });

  it('draws nothing when quiet or not on a terminal', () => {
    const { stream, text } = terminal();
    stageBar('signing', 10, 'items', true, stream).update(5);
    expect(text()).toBe('');
  });
});
