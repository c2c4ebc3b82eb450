/**
 * One of the server's query threads (queryPool.ts starts them): opens the
 * index read-only, as the server's own view does, and answers the queries,
 * refreshes and the close it is sent, in the order they come. A refresh
 * moves this thread's view to the newest commit before any query sent after
 * it is answered, so a query sent after a write's refresh sees the write.
 * `share` answers this thread's forests and postings (built where missing,
 * the postings where asked;
 * their arrays are SharedArrayBuffers, shared, not copied, by postMessage),
 * and `adopt` takes another thread's (queryPool.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openIndex } from '../lshIndex/diskIndex.js';
import type { SharedForests } from '../lshIndex/forestCache.js';
import type { QueryOptions } from '../lshIndex/types.js';
import { answerRequests, type WriterSetup } from './writerThread.js';

export type QueryWorkerOp =
  | { readonly op: 'query'; readonly texts: readonly string[]; readonly options: QueryOptions }
  | { readonly op: 'refresh' }
  | { readonly op: 'share'; readonly postings: boolean }
  | { readonly op: 'adopt'; readonly shared: SharedForests | null }
  | { readonly op: 'close' };

/** A request to a query thread; its reply (a WriterReply) has the same id (0: the reply to opening the index). */
export type QueryWorkerRequest = { readonly id: number } & QueryWorkerOp;

const port = parentPort!;
const setup = workerData as WriterSetup;

await answerRequests(port, async () => {
  // One thread each: the pool is the parallelism; a large query's signing stays on this thread's own signer.
  const index = await openIndex(setup.dir, { readOnly: true, backend: setup.backend, threads: 1 });
  const answer = async (request: QueryWorkerRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query':
        return index.query(request.texts, request.options);
      case 'refresh':
        return index.refresh();
      case 'share':
        return index.shareForests?.(request.postings);
      case 'adopt':
        if (request.shared !== null) index.adoptForests?.(request.shared);
        return;
      case 'close':
        return index.close();
    }
  };
  return { ready: null, run: async (request: QueryWorkerRequest) => (await answer(request)) ?? null };
});
