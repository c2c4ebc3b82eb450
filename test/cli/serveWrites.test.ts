/**
 * `serve` when its writer cannot write (issue 31, items 8 and 12): a full
 * disk (the next segment's file planted as a link to /dev/full, which
 * answers every write with ENOSPC) fails the /add with the file named, and
 * /health says the server is failing until a write succeeds again; no
 * descriptor is closed twice ("closed but not opened in unmanaged mode").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest, segmentName } from '../../src/lshIndex/manifest.js';
import { CLI, tempDir } from '../support/cli.js';
import { postJson, startServe } from '../support/serveProcess.js';

describe('serve on a full disk', () => {
  it.runIf(existsSync('/dev/full'))(
    'the /add fails naming the file, /health reports it, the next write clears it',
    async () => {
      const dir = join(tempDir(), 'index');
      expect(spawnSync(process.execPath, [CLI, 'index', 'create', dir, '--k', '64'], { encoding: 'utf8' }).status).toBe(
        0,
      );
      const served = await startServe([process.execPath, CLI, 'serve', dir, '--port', '0', '--threads', '1']);
      try {
        const doc = (i: number): { id: string; text: string } => ({
          id: `doc-${i}`,
          text: `a served document number ${i} of some words ${i * 7919}`,
        });
        expect((await postJson(`${served.url}/add`, { documents: [doc(1)] })).status).toBe(200);
        const next = `${segmentName(readManifest(dir).generation + 1)}.sig`;
        symlinkSync('/dev/full', join(dir, next));
        const failed = await postJson(`${served.url}/add`, { documents: [doc(2)] });
        expect(failed.status).toBe(500);
        expect(failed.body.error).toContain(join(dir, next));
        expect(failed.body.error).toMatch(/ENOSPC/);
        const health = await fetch(`${served.url}/health`);
        expect(health.status).toBe(503);
        expect((await health.json()).error).toMatch(/ENOSPC/);
        // The failed commit removed what it wrote (the link too): the next add commits, and the server is healthy again.
        expect((await postJson(`${served.url}/add`, { documents: [doc(2)] })).status).toBe(200);
        expect((await fetch(`${served.url}/health`)).status).toBe(200);
      } finally {
        expect(await served.stop()).toBe(0);
      }
      expect(served.output()).not.toMatch(/closed but not opened/);
    },
    60_000,
  );
});
