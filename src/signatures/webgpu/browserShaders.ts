/**
 * Browser: the same WGSL files, inlined by Vite's `?raw` when the library is
 * bundled from its TypeScript sources. Only browser code imports this module.
 */
import mersenne61 from '../../../shaders/mersenne61.wgsl?raw';
import minhash from '../../../shaders/minhash.wgsl?raw';
import oph from '../../../shaders/oph.wgsl?raw';
import mulmodTest from '../../../shaders/mulmod_test.wgsl?raw';
import simhash from '../../../shaders/simhash.wgsl?raw';
import datasketchAffine32 from '../../../shaders/datasketch_affine32.wgsl?raw';
import datasketchAffine64 from '../../../shaders/datasketch_affine64.wgsl?raw';
import datasketchLegacy from '../../../shaders/datasketch_legacy.wgsl?raw';
import type { ShaderSources } from './shaderSources.js';

export const browserShaderSources: ShaderSources = {
  mersenne61,
  minhash,
  oph,
  simhash,
  mulmodTest,
  datasketchAffine32,
  datasketchAffine64,
  datasketchLegacy,
};
