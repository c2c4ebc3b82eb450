/**
 * The index's writer on its own thread (writerThread.ts starts it): opens
 * the index as its one writer and runs each add, remove and stats it is
 * sent, so signing, deciding and writing a segment never hold up the server's
 * thread, where queries run on a read-only view of the same index.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openIndex } from '../lshIndex/diskIndex.js';
import { answerRequests, type WriterRequest, type WriterSetup } from './writerThread.js';

const port = parentPort!;
const setup = workerData as WriterSetup;

await answerRequests(port, async () => {
  const index = await openIndex(setup.dir, { backend: setup.backend, threads: setup.threads });
  const run = async (request: WriterRequest): Promise<unknown> => {
    switch (request.op) {
      case 'add': {
        // A merge after the add that failed (the add committed): /health reports it.
        const result = await index.add(request.documents, { all: request.all });
        return index.writeProblem === undefined ? result : { ...result, writeProblem: index.writeProblem };
      }
      case 'remove':
        return index.remove(request.ids);
      case 'stats':
        return index.stats();
      case 'close':
        return index.close();
    }
  };
  return { ready: index.lockNote ?? null, run };
});
