import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_READ } from '../../../src/io/documents.js';
import { makeParams } from '../../../src/signatures/params.js';
import { tempDir } from '../../support/cli.js';

const slice =
  gunzipSync(readFileSync('data/sample.jsonl.gz'))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .slice(0, 40)
    .join('\n') + '\n';

describe('runSign', () => {
  it('releases the backend when the output cannot be opened (a refused --resume)', async () => {
    const destroy = vi.fn();
    const destroyWorkers = vi.fn();
    vi.doMock('../../../src/firstPass/node/resolveBackend.js', () => ({
      openSigner: async () => ({
        signer: { description: 'fake', destroy, sign: async () => new Uint32Array(0) },
        firstPass: { workers: { size: 1, request: async () => ({}), destroy: destroyWorkers } },
        notes: [],
      }),
    }));
    try {
      // The mock reaches sign.js only through a fresh load: another file in the same worker (isolate: false) may have loaded it.
      vi.resetModules();
      const { runSign } = await import('../../../src/pipeline/sign/sign.js');
      const dir = tempDir();
      writeFileSync(join(dir, 'in.jsonl'), slice);
      const out = join(dir, 's.npy');
      writeFileSync(`${out}.json.partial`, 'not a sidecar\n');
      writeFileSync(`${out}.partial`, ''); // both halves of an interrupted run are there
      const config = {
        inputs: [join(dir, 'in.jsonl')],
        read: DEFAULT_READ,
        params: makeParams({ k: 8 }),
        backend: 'cpu' as const,
        out,
        resume: true,
        batchSize: 4,
      };
      await expect(runSign(config)).rejects.toThrow(/cannot resume/);
      expect(destroy).toHaveBeenCalledOnce();
      expect(destroyWorkers).toHaveBeenCalledOnce();
    } finally {
      vi.doUnmock('../../../src/firstPass/node/resolveBackend.js');
      // The fake stays in the module registry until reset: a later file in this worker (isolate: false) importing
      // the pipeline would get workers that answer `{}` (runDedup then failed "a worker answered a load with
      // something else" whenever this file ran before it in the same worker).
      vi.resetModules();
    }
  });
});
