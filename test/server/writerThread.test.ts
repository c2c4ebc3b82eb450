/**
 * The index's writer on its own thread: adds and removes reach the index on
 * disk, the index's errors come back with their class (so the server answers
 * them as in process: 409, IndexLockedError), and close() releases the lock.
 * The thread runs the build in dist/ (workerScript.ts), as the CLI does.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { IndexIdError } from '../../src/lshIndex/errors.js';
import { errorReply } from '../../src/server/routes.js';
import { WriterThread, type WriterReply, type WriterRequest } from '../../src/server/writerThread.js';
import { tempDir } from '../support/tempDirs.js';

const text = (seed: number): string =>
  Array.from({ length: 60 }, (_, i) => `w${(seed * 7919 + i * 104729) % 50_000}`).join(' ');

describe('WriterThread', () => {
  it('adds and removes on the thread; a reader refreshed after sees each commit; errors keep their class', async () => {
    const dir = join(tempDir(), 'index');
    await (await createIndex(dir, { backend: 'cpu', threads: 1 })).close();
    const { writer } = await WriterThread.open({ dir, backend: 'cpu', threads: 1 });
    const reader = await openIndex(dir, { readOnly: true, backend: 'cpu', threads: 1 });
    try {
      const added = await writer.add([
        { id: 'a', text: text(1) },
        { id: 'b', text: text(2) },
      ]);
      expect(added.added).toBe(2);
      expect((await reader.stats()).documents).toBe(0); // the view it opened
      await reader.refresh();
      expect((await reader.stats()).documents).toBe(2);
      expect((await reader.query([text(1)]))[0].matches.map((m) => m.id)).toEqual(['a']);

      const conflict = await writer.add([{ id: 'a', text: text(3) }]).catch((error: unknown) => error);
      expect(conflict).toBeInstanceOf(IndexIdError); // rebuilt from its fields across the thread
      expect(conflict).toMatchObject({ problem: 'indexed', id: 'a', documents: [1] });
      expect(errorReply(conflict).status).toBe(409);

      const second = await WriterThread.open({ dir, backend: 'cpu', threads: 1 }).catch((error: unknown) => error);
      expect((second as Error).name).toBe('IndexLockedError');
      expect((second as Error).message).toMatch(/locked by another writer/);

      expect(await writer.remove(['b', 'zz'])).toEqual({ removed: 1 });
      expect((await writer.stats()).documents).toBe(1);
    } finally {
      await writer.close();
      await reader.close();
    }
    // The lock is released: another writer opens it.
    const again = await openIndex(dir, { backend: 'cpu', threads: 1 });
    expect((await again.stats()).documents).toBe(1);
    await again.close();
    await expect(writer.add([{ id: 'c', text: text(4) }])).rejects.toThrow(/the index writer stopped/);
    expect(writer.failure, 'closed on purpose: not a failure').toBeUndefined();
  });

  it('a writer thread that ends unasked is a failure (health says so) and every write after it fails', async () => {
    const dir = join(tempDir(), 'index');
    await (await createIndex(dir, { backend: 'cpu', threads: 1 })).close();
    const { writer } = await WriterThread.open({ dir, backend: 'cpu', threads: 1 });
    expect(writer.failure).toBeUndefined();
    await (writer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    expect(writer.failure).toMatch(/the index writer stopped \(exit code 1\)/);
    await expect(writer.remove(['a'])).rejects.toThrow(/the index writer stopped/);
  });

  it("close() ends when the close reply and the thread's exit arrive in one turn (a loaded machine)", async () => {
    // When a thread ends, Node delivers the messages still queued from it and then emits 'exit', in one turn
    // (Worker's kOnExit drains its port first). close() looked for 'exit' only after its reply resolved, one
    // microtask too late: it waited for ever, and `gpudedup serve` ended with 13 (a top-level await never settled)
    // instead of 0 on SIGTERM, 2 times in 48 at load 20. A stand-in for the thread delivers both in one turn.
    const thread = new EventEmitter() as EventEmitter & {
      postMessage(request: WriterRequest): void;
      terminate(): Promise<number>;
    };
    thread.postMessage = (request) => {
      if (request.op !== 'close') return;
      setImmediate(() => {
        thread.emit('message', { id: request.id, ok: true, value: null } satisfies WriterReply);
        thread.emit('exit', 0);
      });
    };
    thread.terminate = async () => 1;
    const writer = new (WriterThread as unknown as new (worker: unknown) => WriterThread)(thread);
    const outcome = await Promise.race([
      writer.close().then(() => 'closed'),
      new Promise((r) => setTimeout(r, 2000, 'hung')),
    ]);
    expect(outcome).toBe('closed');
  });
});
