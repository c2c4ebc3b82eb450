import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineFilter } from '../../src/cli/quietNative.js';
import { noGpuDeviceReason } from '../../src/signatures/gpuDevices.js';
import { CLI, tempDir } from '../support/cli.js';

const DAWN =
  'Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n';

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
      expect(filtered([text.slice(0, cut), text.slice(cut)]).join('')).toBe(
        'backend webgpu: chosen\ngpudedup: real error\n',
      );
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

  it("drops the Vulkan loader's no-driver warnings with Dawn's location line and the blank line after it", () => {
    // As Dawn prints them on a machine with a Vulkan loader and no driver, once per instance.
    const block =
      'Warning: vkCreateInstance: Found no drivers!\n' +
      'Warning: vkCreateInstance failed with VK_ERROR_INCOMPATIBLE_DRIVER\n' +
      '    at CheckVkSuccessImpl (/home/runner/work/node-webgpu/node-webgpu/third_party/dawn/src/dawn/native/vulkan/VulkanError.cpp:106)\n' +
      '\n';
    const text = `${block}${block}backend cpu: chosen\n\nsummary\n    indented\n`;
    for (let cut = 1; cut < text.length; cut += 5) {
      expect(filtered([text.slice(0, cut), text.slice(cut)]).join('')).toBe(
        'backend cpu: chosen\n\nsummary\n    indented\n',
      );
    }
  });

  it('keeps a line that only starts like a harmless one', () => {
    expect(filtered(['Warning: maxDynamic', 'ally something else\n']).join('')).toBe(
      'Warning: maxDynamically something else\n',
    );
  });
});

describe('native noise in real runs', () => {
  it('a Vulkan loader without drivers: `--backend webgpu` fails with one line, no loader warnings', () => {
    const dir = tempDir();
    const drivers = join(dir, 'no-drivers');
    mkdirSync(drivers);
    writeFileSync(join(dir, 'in.jsonl'), '{"id":"a","text":"one two three four five six"}\n');
    // VK_DRIVER_FILES naming an empty folder: the loader finds no driver, as on a GPU-less server.
    const run = spawnSync(
      process.execPath,
      [CLI, 'sign', join(dir, 'in.jsonl'), '-o', join(dir, 's.npy'), '--backend', 'webgpu'],
      {
        encoding: 'utf8',
        env: { ...process.env, VK_DRIVER_FILES: drivers, VK_ICD_FILENAMES: drivers },
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).not.toMatch(/vkCreateInstance|CheckVkSuccessImpl/);
    expect(run.stderr.trim().split('\n'), run.stderr).toHaveLength(1);
  });

  it("the library with backend 'auto' prints nothing from native code where no GPU device exists", () => {
    if (noGpuDeviceReason() === undefined) return; // a machine with a GPU: Dawn is asked, and its warnings are its own
    const script = `const { minhash } = await import(${JSON.stringify(join(process.cwd(), 'dist/src/index.js'))}); await minhash(['one two three four five six seven'], { k: 16 });`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
  });
});
