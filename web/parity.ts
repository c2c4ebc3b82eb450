/**
 * Test-only entry (web/parity.html, built by test/web, not by `npm run
 * web:build`): shingles and signs texts in the browser, on its WebGPU adapter,
 * with the same modules the app bundles, so that the test can compare the
 * words with the CPU backend run in Node.
 */
import type { ShingleMode } from '../src/shingles/shingles.js';
import { shingleDocument } from '../src/shingles/shingles.js';
import { hashFamilyOf, makeParams, shingleOptionsOf } from '../src/signatures/params.js';
import { pack } from '../src/shingles/shingleBatch.js';
import { resolveBrowserBackend } from '../src/signatures/webgpu/browser.js';
import type { SignerTuning } from '../src/signatures/selectBackend.js';

export interface ParityRequest {
  readonly texts: string[];
  readonly k: number;
  readonly seed?: string;
  readonly shingle?: ShingleMode;
  readonly n?: number;
  readonly tuning?: SignerTuning;
}

export interface ParityResponse {
  readonly kind: string;
  readonly description: string;
  /** Packed shingle sets (CSR) as the browser computed them. */
  readonly shingles: number[];
  readonly offsets: number[];
  /** The WebGPU signer's output: documents·k·(lo, hi). */
  readonly words: number[];
}

declare global {
  interface Window {
    gpudedupParity(request: ParityRequest): Promise<ParityResponse>;
  }
}

window.gpudedupParity = async (request) => {
  const params = makeParams({ k: request.k, seed: request.seed, shingle: request.shingle, n: request.n });
  const shingleOptions = shingleOptionsOf(params);
  const batch = pack(request.texts.map((text) => shingleDocument(text, shingleOptions)));
  // 'webgpu', not 'auto': parity must never quietly compare the CPU with itself.
  const { backend } = await resolveBrowserBackend('webgpu', hashFamilyOf(params), request.tuning);
  try {
    const words = await backend.sign(batch);
    return {
      kind: backend.kind,
      description: backend.description,
      shingles: Array.from(batch.shingles),
      offsets: Array.from(batch.offsets),
      words: Array.from(words),
    };
  } finally {
    backend.destroy();
  }
};
document.body.dataset.ready = 'true';
