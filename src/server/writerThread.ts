/**
 * The server's writer: the on-disk index opened as its one writer on a
 * worker thread (writerWorker.ts), behind the index's face. An add's
 * signing, decisions and segment writing run there; the server's thread
 * keeps answering queries from a read-only view that `refresh()` moves to
 * each new commit. Errors come back with their class (RangeError,
 * IndexIdError with its fields, IndexParameterError by name…) so the server
 * answers them as it would in process.
 */
import { type MessagePort, Worker } from 'node:worker_threads';
import type { BackendChoice } from '../options.js';
import { IndexIdError, type IndexIdProblem } from '../lshIndex/errors.js';
import type {
  AddOptions,
  AddResult,
  DedupIndex,
  IndexDocument,
  IndexStats,
  QueryResult,
  RemoveResult,
} from '../lshIndex/types.js';
import { workerScript } from '../workers/workerScript.js';

export interface WriterSetup {
  readonly dir: string;
  readonly backend: BackendChoice;
  readonly threads?: number;
}

export type WriterOp =
  | { readonly op: 'add'; readonly documents: readonly IndexDocument[]; readonly all: boolean }
  | { readonly op: 'remove'; readonly ids: readonly string[] }
  | { readonly op: 'stats' }
  | { readonly op: 'close' };

/** A request to the writer's thread; its reply has the same id (0: the reply to opening the index). */
export type WriterRequest = { readonly id: number } & WriterOp;

/** An error as plain data; an IndexIdError's fields with it. */
export interface WriterFailure {
  readonly name: string;
  readonly message: string;
  /** A system error's code (ENOSPC, EMFILE…): the writer could not write, whatever was asked. */
  readonly code?: string;
  readonly refusedId?: {
    readonly problem: IndexIdProblem;
    readonly id: string;
    readonly documents: readonly number[];
    readonly indexedOf?: { readonly indexed: number; readonly of: number };
  };
}

export type WriterReply = { readonly id: number } & (
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: WriterFailure }
);

/**
 * A worker's side of the protocol (the writer's and the query threads'): `open` makes what it serves (its `ready`
 * value answers id 0), then each request is answered in order with what `run` gives, as a reply of the same id;
 * `close` ends the port once answered. A failure to open is the reply to id 0, and ends the port.
 */
export async function answerRequests<R extends { readonly id: number; readonly op: string }>(
  port: MessagePort,
  open: () => Promise<{ readonly ready: unknown; readonly run: (request: R) => Promise<unknown> }>,
): Promise<void> {
  try {
    const { ready, run } = await open();
    port.postMessage({ id: 0, ok: true, value: ready } satisfies WriterReply);
    port.on('message', (request: R) => {
      run(request).then(
        (value) => {
          port.postMessage({ id: request.id, ok: true, value } satisfies WriterReply);
          if (request.op === 'close') port.close();
        },
        (error: unknown) =>
          port.postMessage({ id: request.id, ok: false, error: writerFailure(error) } satisfies WriterReply),
      );
    });
  } catch (error) {
    port.postMessage({ id: 0, ok: false, error: writerFailure(error) } satisfies WriterReply);
    port.close();
  }
}

/** An error as plain data: its class name survives (RangeError, IndexParameterError…), for the reply's status. */
export function writerFailure(error: unknown): WriterFailure {
  if (error instanceof IndexIdError)
    return {
      name: error.name,
      message: error.message,
      refusedId: { problem: error.problem, id: error.id, documents: error.documents, indexedOf: error.indexedOf },
    };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return {
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/**
 * Errors that say the writer cannot write at all (descriptors, space, permissions, the device), not that a request was
 * wrong.
 */
const CANNOT_WRITE = new Set(['EMFILE', 'ENFILE', 'ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'EIO']);

/**
 * The error as thrown on the writer's (or a query worker's, queryPool.ts) thread: IndexIdError, RangeError and
 * TypeError as such, others by name.
 */
export function rebuilt(error: WriterFailure): Error {
  if (error.refusedId !== undefined)
    return new IndexIdError(
      error.refusedId.problem,
      error.refusedId.id,
      error.refusedId.documents,
      error.refusedId.indexedOf,
    );
  const made =
    error.name === 'RangeError'
      ? new RangeError(error.message)
      : error.name === 'TypeError'
        ? new TypeError(error.message)
        : new Error(error.message);
  made.name = error.name;
  return made;
}

export class WriterThread implements DedupIndex {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  /** Set when the thread is gone: every later call fails with it. */
  private gone: Error | undefined;
  private closing = false;

  /**
   * The last write's failure to write (ENOSPC, EMFILE…) or the index's note after it; cleared by a write that succeeds.
   */
  private writeFailure: string | undefined;

  /**
   * Why the writer cannot write (its thread failed or ended unasked, or the last write could not write); undefined
   * while it can.
   */
  get failure(): string | undefined {
    return this.closing ? undefined : (this.gone?.message ?? this.writeFailure);
  }

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: WriterReply) => {
      const entry = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.ok) {
        const note = (reply.value as { writeProblem?: string } | null)?.writeProblem;
        if (this.writes.has(reply.id)) this.writeFailure = note;
        entry?.resolve(reply.value);
      } else {
        if (this.writes.has(reply.id) && reply.error.code !== undefined && CANNOT_WRITE.has(reply.error.code))
          this.writeFailure = `the last write failed: ${reply.error.message}`;
        entry?.reject(rebuilt(reply.error));
      }
      this.writes.delete(reply.id);
    });
    const end = (error: Error): void => {
      this.gone ??= error;
      for (const entry of this.waiting.values()) entry.reject(this.gone);
      this.waiting.clear();
    };
    worker.on('error', (error) => end(new Error(`the index writer failed: ${error.message}`)));
    worker.on('exit', (code) => end(new Error(`the index writer stopped (exit code ${code})`)));
  }

  /** Starts the thread and opens the index there (its writer lock taken); rejects as openIndex would. */
  static async open(setup: WriterSetup): Promise<{ writer: WriterThread; lockNote?: string }> {
    const worker = new Worker(workerScript(import.meta.url, 'server/writerWorker.js'), { workerData: setup });
    const writer = new WriterThread(worker);
    try {
      const note = (await writer.reply(0)) as string | null;
      return { writer, lockNote: note ?? undefined };
    } catch (error) {
      await worker.terminate();
      throw error;
    }
  }

  /** The reply with this id, when it comes. */
  private reply(id: number): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  /** The ids of adds and removes in flight: their outcome says whether the writer can write. */
  private readonly writes = new Set<number>();

  private call(op: WriterOp): Promise<unknown> {
    const id = this.next++;
    if (op.op === 'add' || op.op === 'remove') this.writes.add(id);
    const reply = this.reply(id);
    if (!this.gone) this.worker.postMessage({ ...op, id } satisfies WriterRequest);
    return reply;
  }

  async add(documents: readonly IndexDocument[], options: AddOptions = {}): Promise<AddResult> {
    const { writeProblem: _note, ...result } = (await this.call({
      op: 'add',
      documents,
      all: options.all === true,
    })) as AddResult & { writeProblem?: string };
    return result;
  }

  async remove(ids: readonly string[]): Promise<RemoveResult> {
    return (await this.call({ op: 'remove', ids })) as RemoveResult;
  }

  async stats(): Promise<IndexStats> {
    return (await this.call({ op: 'stats' })) as IndexStats;
  }

  /** The server queries its read-only view, never the writer. */
  async query(): Promise<readonly QueryResult[]> {
    throw new Error('the writer thread does not answer queries: query the read-only view');
  }

  /** Closes the index (after the write in flight) and ends the thread. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.gone) return;
    // Listening before asking: the reply and the exit can arrive in one turn (Node delivers a thread's last
    // messages, then 'exit'), before code after the reply's await runs.
    const ended = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    await this.call({ op: 'close' });
    const stuck = setTimeout(() => void this.worker.terminate(), 5000).unref();
    await ended;
    clearTimeout(stuck);
  }
}
