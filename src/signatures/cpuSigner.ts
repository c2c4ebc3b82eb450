/** The CPU backend: the shared multiply-mod in TypeScript, one document after another. */
import { mulAddModP } from '../math/mersenne61.js';
import { EMPTY_SLOT_WORD, documentCount, type ShingleBatch, type SignerBackend } from './backend.js';
import type { HashFamily } from './hashFamily.js';
import { signBatchOph } from './oph.js';
import { signBatchSimhash } from './simhash.js';
import { isDatasketchScheme } from './datasketchFamily.js';
import { signBatchDatasketch } from './datasketchSigner.js';

export class CpuSigner implements SignerBackend {
  readonly kind = 'cpu' as const;
  readonly description = 'CPU (TypeScript, 32-bit lanes)';
  readonly k: number;

  constructor(private readonly family: HashFamily) {
    this.k = family.k;
  }

  async sign(batch: ShingleBatch): Promise<Uint32Array> {
    return signBatchOnCpu(this.family, batch);
  }

  destroy(): void {}
}

/** Synchronous core of the CPU backend, also used to finish a run when a GPU fails. */
export function signBatchOnCpu(family: HashFamily, batch: ShingleBatch): Uint32Array {
  // the one dispatch on the scheme for CPU signing
  if (family.scheme === 'oph') return signBatchOph(family, batch);
  if (family.scheme === 'simhash') return signBatchSimhash(family.a, batch);
  if (isDatasketchScheme(family.scheme)) return signBatchDatasketch(family, batch);
  const { k, a, b } = family;
  const { shingles, offsets } = batch;
  const docs = documentCount(batch);
  const out = new Uint32Array(docs * k * 2).fill(EMPTY_SLOT_WORD);
  const value = new Uint32Array(2);
  for (let d = 0; d < docs; d++) {
    const base = d * k * 2;
    for (let s = offsets[d]; s < offsets[d + 1]; s++) {
      const xLo = shingles[2 * s];
      const xHi = shingles[2 * s + 1];
      for (let i = 0; i < k; i++) {
        mulAddModP(a[2 * i + 1], a[2 * i], xHi, xLo, b[2 * i + 1], b[2 * i], value, 0);
        const at = base + 2 * i;
        const vHi = value[1];
        if (vHi < out[at + 1] || (vHi === out[at + 1] && value[0] < out[at])) {
          out[at] = value[0];
          out[at + 1] = vHi;
        }
      }
    }
  }
  return out;
}
