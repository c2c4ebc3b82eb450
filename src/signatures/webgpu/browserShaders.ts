/**
 * Browser: the same WGSL files, inlined by Vite's `?raw` when the library is
 * bundled from its TypeScript sources. Only browser code imports this module.
 */
import mersenne61 from '../../../shaders/mersenne61.wgsl?raw';
import minhash from '../../../shaders/minhash.wgsl?raw';
import oph from '../../../shaders/oph.wgsl?raw';
import mulmodTest from '../../../shaders/mulmod_test.wgsl?raw';
import type { ShaderSources } from './shaderSources.js';

export const browserShaderSources: ShaderSources = { mersenne61, minhash, oph, mulmodTest };
