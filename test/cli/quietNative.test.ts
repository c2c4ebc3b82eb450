import { describe, expect, it } from 'vitest';
import { LineFilter } from '../../src/cli/quietNative.js';

const DAWN = 'Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n';

function filtered(chunks: string[]): string[] {
  const written: string[] = [];
  const filter = new LineFilter((text) => written.push(text));
  for (const chunk of chunks) filter.push(chunk);
  filter.end();
  return written;
}

describe('LineFilter', () => {
  it('drops the harmless native lines, however the chunks cut them', () => {
    const text = `backend webgpu: chosen\n${DAWN}${DAWN.replace('Storage', 'Uniform')}gpudedup: real error\n`;
    for (let cut = 1; cut < text.length; cut += 7) {
      expect(filtered([text.slice(0, cut), text.slice(cut)]).join('')).toBe('backend webgpu: chosen\ngpudedup: real error\n');
    }
  });

  it('passes a progress bar through at once, before its line ends', () => {
    const written: string[] = [];
    const filter = new LineFilter((text) => written.push(text));
    filter.push('\rsigning  |████░░| 40%');
    expect(written).toEqual(['\rsigning  |████░░| 40%']);
    filter.push('\rsigning  |██████| 100%\n');
    expect(written.join('')).toBe('\rsigning  |████░░| 40%\rsigning  |██████| 100%\n');
  });

  it('keeps a line that only starts like a harmless one', () => {
    expect(filtered(['Warning: maxDynamic', 'ally something else\n']).join('')).toBe('Warning: maxDynamically something else\n');
  });
});
