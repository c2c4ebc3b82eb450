/** A pool's worker thread, asked to end, ends by itself rather than being terminated (src/workers/workerPool.ts). */
import { describe, expect, it } from 'vitest';
import { threadWorker } from '../../src/workers/workerPool.js';
import { workerScript } from '../../src/workers/workerScript.js';

type Answer = { readonly id: number; readonly error?: string };

describe('threadWorker', () => {
  it('ends with exit code 0 once asked, after answering what it was sent (terminate() would give 1)', async () => {
    const worker = threadWorker<Answer>(workerScript(import.meta.url, 'engines/textWorker.js'));
    const answers: Answer[] = [];
    const ended = new Promise<string>((resolve) =>
      worker.listen(
        (answer) => answers.push(answer),
        (error) => resolve(error.message),
      ),
    );
    worker.postMessage({ id: 7, type: 'shingle' }, []); // no source: the handler throws, and says so
    worker.end(); // after the request: the thread answers it first
    expect(await ended).toBe('exited (code 0)');
    expect(answers).toHaveLength(1);
    expect(answers[0].id).toBe(7);
    expect(answers[0].error).toBeTypeOf('string');
  });
});
