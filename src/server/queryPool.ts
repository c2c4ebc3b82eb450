/**
 * The server's query threads (`serve --threads N`, N ≥ 2): N worker threads
 * (queryWorker.ts), each with its own read-only view of the index (its own
 * forests and postings, built on its first top-K or containment query), so
 * N queries run at once while the server's thread only reads requests and
 * writes replies. The forests are built once between them: the first top-K
 * or containment query of each commit waits while one thread builds them (or
 * finds them built) and the others adopt its arrays, shared memory (issue 39:
 * at 1 M documents each thread built its own, 60–137 s and 0.5 GiB a
 * thread); so are the postings, on the first containment query. A query goes to the thread with the fewest in flight (the
 * next in turn among equals); a thread that is busy building its forests is
 * passed over while another is free. `refresh()` moves every thread to the
 * newest commit and resolves once all have: the server calls it after each
 * write before answering, so a query sent after a write's reply sees it.
 * Errors come back with their class (writerThread.ts), so the reply's status
 * is the one-thread server's.
 */
import { Worker } from 'node:worker_threads';
import type { SharedForests } from '../lshIndex/forestCache.js';
import type { DedupIndex, IndexStats, QueryOptions, QueryResult } from '../lshIndex/types.js';
import { workerScript } from '../workers/workerScript.js';
import type { QueryWorkerOp, QueryWorkerRequest } from './queryWorker.js';
import { rebuilt, type WriterReply, type WriterSetup } from './writerThread.js';

/** One query thread and the replies it owes. */
class QueryThread {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** Set when the thread is gone: every later call fails with it. */
  gone: Error | undefined;
  readonly exited: Promise<void>;

  constructor(readonly worker: Worker) {
    worker.on('message', (reply: WriterReply) => {
      const entry = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.ok) entry?.resolve(reply.value);
      else entry?.reject(rebuilt(reply.error));
    });
    const end = (error: Error): void => {
      this.gone ??= error;
      for (const entry of this.waiting.values()) entry.reject(this.gone);
      this.waiting.clear();
    };
    worker.on('error', (error) => end(new Error(`a query thread failed: ${error.message}`)));
    this.exited = new Promise((resolve) =>
      worker.on('exit', (code) => {
        end(new Error(`a query thread stopped (exit code ${code})`));
        resolve();
      }),
    );
  }

  /** Replies owed: queries and refreshes sent, not yet answered. */
  get inFlight(): number {
    return this.waiting.size;
  }

  /** The reply with this id, when it comes (0: opening the index). */
  reply(id: number): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  call(op: QueryWorkerOp): Promise<unknown> {
    const id = this.next++;
    const reply = this.reply(id);
    if (!this.gone) this.worker.postMessage({ ...op, id } satisfies QueryWorkerRequest);
    return reply;
  }
}

export class QueryPool implements DedupIndex {
  private turn = 0;
  private closing = false;
  /** This commit's rounds of sharing (forestsShared): the forests, and the forests with the postings. */
  private sharing: { forests?: Promise<void>; postings?: Promise<void> } = {};

  private constructor(
    private readonly threads: readonly QueryThread[],
    private readonly view: DedupIndex,
  ) {}

  /**
   * Starts `size` threads, each opening `setup.dir` read-only; rejects as openIndex would (the threads ended). `view`
   * answers stats (the server's own read-only view: stats never wait behind a query).
   */
  static async open(setup: WriterSetup, size: number, view: DedupIndex): Promise<QueryPool> {
    if (!(Number.isInteger(size) && size >= 1)) throw new RangeError(`query threads must be at least 1, got ${size}`);
    const script = workerScript(import.meta.url, 'server/queryWorker.js');
    const threads = Array.from({ length: size }, () => new QueryThread(new Worker(script, { workerData: setup })));
    try {
      await Promise.all(threads.map((thread) => thread.reply(0)));
    } catch (error) {
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
      throw error;
    }
    return new QueryPool(threads, view);
  }

  get size(): number {
    return this.threads.length;
  }

  /** Why queries cannot all be answered (a thread gone unasked); undefined while every thread is there. */
  get failure(): string | undefined {
    if (this.closing) return undefined;
    return this.threads.find((thread) => thread.gone !== undefined)?.gone?.message;
  }

  /** The live thread with the fewest replies owed, the next in turn among equals. */
  private pick(): QueryThread {
    const n = this.threads.length;
    let best: QueryThread | undefined;
    for (let i = 0; i < n; i++) {
      const thread = this.threads[(this.turn + i) % n];
      if (thread.gone === undefined && (best === undefined || thread.inFlight < best.inFlight)) best = thread;
    }
    this.turn = (this.turn + 1) % n;
    if (best === undefined) throw new Error(this.failure ?? 'every query thread has stopped');
    return best;
  }

  async query(texts: readonly string[], options: QueryOptions = {}): Promise<readonly QueryResult[]> {
    // Only the options a query takes, as plain data (a caller's object may hold more).
    const plain: QueryOptions = { top: options.top, containment: options.containment, rerank: options.rerank };
    if (plain.top !== undefined || plain.containment !== undefined)
      await this.forestsShared(plain.containment !== undefined);
    return (await this.pick().call({ op: 'query', texts, options: plain })) as QueryResult[];
  }

  /**
   * Once a commit, before its first top-K query: one thread's forests (built where missing), adopted by every other;
   * before its first containment query, its postings too (a top-K query of a short text builds a thread's own).
   * Where it fails, each thread builds its own, as it would alone.
   */
  private forestsShared(postings: boolean): Promise<void> {
    if (this.threads.length < 2) return Promise.resolve();
    const round = postings ? 'postings' : 'forests';
    this.sharing[round] ??= (async () => {
      const builder = this.pick();
      const shared = await builder.call({ op: 'share', postings });
      const others = this.threads.filter((t) => t !== builder && t.gone === undefined);
      await Promise.all(others.map((t) => t.call({ op: 'adopt', shared: (shared ?? null) as SharedForests | null })));
    })().catch(() => undefined);
    return this.sharing[round];
  }

  /** Every live thread moved to the newest commit; resolves when all have (rejects with the first failure). */
  async refresh(): Promise<void> {
    await Promise.all(this.threads.filter((t) => t.gone === undefined).map((t) => t.call({ op: 'refresh' })));
    this.sharing = {}; // a new commit's segments: shared again on its first query that needs them
  }

  stats(): Promise<IndexStats> {
    return this.view.stats();
  }

  add(): never {
    throw new Error('the query threads do not write: add through the writer');
  }

  remove(): never {
    throw new Error('the query threads do not write: remove through the writer');
  }

  /** Closes every thread's view (after the queries it was sent) and ends the threads; not the stats view. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(
      this.threads.map(async (thread) => {
        if (thread.gone) return;
        await thread.call({ op: 'close' }).catch(() => undefined);
        const stuck = setTimeout(() => void thread.worker.terminate(), 5000).unref();
        await thread.exited;
        clearTimeout(stuck);
      }),
    );
  }
}
