/**
 * Node: reads the WGSL from `shaders/` at the package root. The compiled code
 * runs from dist/src/signatures/webgpu/ and the tests run the TypeScript from
 * src/signatures/webgpu/, so the root is found by walking up to the first
 * directory that holds both package.json and shaders/, not by a fixed `../..`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHADER_FILES, type ShaderSources } from './shaderSources.js';

export function findShaderDirectory(start: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const shaders = join(dir, 'shaders');
    if (existsSync(join(dir, 'package.json')) && existsSync(join(shaders, SHADER_FILES.minhash))) return shaders;
    if (dirname(dir) === dir) throw new Error(`gpudedup: no shaders/ directory next to a package.json above ${start}`);
  }
}

let cached: ShaderSources | undefined;

export function loadShaderSources(): ShaderSources {
  if (cached) return cached;
  const dir = findShaderDirectory();
  const read = (key: keyof ShaderSources): string => readFileSync(join(dir, SHADER_FILES[key]), 'utf8');
  cached = {
    mersenne61: read('mersenne61'),
    minhash: read('minhash'),
    oph: read('oph'),
    simhash: read('simhash'),
    mulmodTest: read('mulmodTest'),
    datasketchAffine32: read('datasketchAffine32'),
    datasketchAffine64: read('datasketchAffine64'),
    datasketchLegacy: read('datasketchLegacy'),
  };
  return cached;
}
