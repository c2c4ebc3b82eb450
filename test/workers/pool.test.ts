/** The pool's workers start one by one, each on its own first request (src/workers/pool.ts). */
import { describe, expect, it } from 'vitest';
import { Pool, type PoolRequest, type PoolResponse, type PoolWorker } from '../../src/workers/pool.js';

type Request = PoolRequest & { readonly value: number };
type Response = PoolResponse & { readonly doubled: number };

/** A pool of `size` workers that double what they are sent, answering at once; `spawned` counts the starts. */
function doublingPool(size: number) {
  const spawned: number[] = [];
  const pool = new Pool<Request, Response>(
    () => {
      let answer: (response: Response) => void = () => undefined;
      const worker: PoolWorker<Response> = {
        postMessage: (message) => {
          const { id, value } = message as Request;
          queueMicrotask(() => answer({ id, doubled: 2 * value }));
        },
        listen: (onMessage) => {
          answer = onMessage;
        },
        end: () => undefined,
      };
      spawned.push(spawned.length);
      return worker;
    },
    size,
    'doubling',
  );
  return { pool, spawned };
}

describe('Pool', () => {
  it('starts a worker on its first request only: one request to worker 2 of 4 starts one worker', async () => {
    const { pool, spawned } = doublingPool(4);
    expect(spawned).toHaveLength(0);
    expect((await pool.request(2, { value: 21 })).doubled).toBe(42);
    expect(spawned).toHaveLength(1);
    expect([0, 1, 2, 3].map((w) => pool.started(w))).toEqual([false, false, true, false]);
    expect((await pool.request(2, { value: 1 })).doubled).toBe(2); // the same worker again: no new one
    expect(spawned).toHaveLength(1);
    await Promise.all([pool.request(0, { value: 3 }), pool.request(3, { value: 4 })]);
    expect(spawned).toHaveLength(3);
    expect([0, 1, 2, 3].map((w) => pool.started(w))).toEqual([true, false, true, true]);
    pool.destroy();
  });

  it('refuses a worker index outside the pool, starting nothing', async () => {
    const { pool, spawned } = doublingPool(2);
    await expect(pool.request(2, { value: 1 })).rejects.toThrow('doubling: no worker 2');
    await expect(pool.request(-1, { value: 1 })).rejects.toThrow('doubling: no worker -1');
    expect(spawned).toHaveLength(0);
    pool.destroy();
  });

  it("leaves a worker ended mid-task ref'd: the rejected request does not unref it after end() ref'd it", async () => {
    const calls: string[] = [];
    const worker: PoolWorker<Response> = {
      postMessage: () => undefined, // never answers: the request is still in flight at destroy()
      listen: () => undefined,
      ref: () => calls.push('ref'),
      unref: () => calls.push('unref'),
      end: () => calls.push('end (ref)'),
    };
    const pool = new Pool<Request, Response>(() => worker, 1, 'stuck');
    const inFlight = pool.request(0, { value: 1 });
    pool.destroy();
    await expect(inFlight).rejects.toThrow('stuck destroyed');
    expect(calls).toEqual(['unref', 'ref', 'end (ref)']);
  });
});
