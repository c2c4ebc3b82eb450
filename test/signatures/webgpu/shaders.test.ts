// The WGSL lives in shaders/ only, and Node finds it from src/ and dist/ alike.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tempDir } from '../../support/tempDirs.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findShaderDirectory, loadShaderSources } from '../../../src/signatures/webgpu/nodeShaders.js';
import { SHADER_FILES, kernelSource } from '../../../src/signatures/webgpu/shaderSources.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('shader sources', () => {
  it('are read from shaders/ at the package root', () => {
    const sources = loadShaderSources();
    for (const [key, file] of Object.entries(SHADER_FILES)) {
      expect(sources[key as keyof typeof sources]).toBe(readFileSync(join(process.cwd(), 'shaders', file), 'utf8'));
    }
  });

  it('are found from a compiled layout (dist/src/signatures/webgpu) by walking up to package.json', () => {
    const root = tempDir('gpudedup-shaders-');
    writeFileSync(join(root, 'package.json'), '{}');
    mkdirSync(join(root, 'shaders'));
    writeFileSync(join(root, 'shaders', SHADER_FILES.minhash), '');
    const compiled = join(root, 'dist', 'src', 'signatures', 'webgpu');
    mkdirSync(compiled, { recursive: true });
    expect(findShaderDirectory(compiled)).toBe(join(root, 'shaders'));
  });

  it('put the shared multiply-mod (no entry point) before each kernel (one entry point each)', () => {
    const sources = loadShaderSources();
    expect(sources.mersenne61).not.toMatch(/@compute/);
    for (const kernel of ['minhash', 'mulmodTest'] as const) {
      const code = kernelSource(sources, kernel);
      expect(code.startsWith(sources.mersenne61)).toBe(true);
      expect(code.match(/@compute/g)).toHaveLength(1);
    }
  });

  it('have no second copy in TypeScript strings', () => {
    const ts = filesUnder(join(process.cwd(), 'src')).filter((file) => file.endsWith('.ts'));
    for (const file of ts)
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/fn mul_add_mod_p|@compute|@workgroup_size/);
  });
});
