/**
 * A fixed set of worker threads that answer requests by id (Node). Shared by
 * the CPU signer and the shingle pool, which differ only in what they send.
 *
 * - Idle workers are unref'd so they never keep the process alive; a worker
 *   with requests outstanding is ref'd (counted: calls may overlap).
 * - A worker that errors or exits fails every waiting request and the pool for
 *   good: a dead worker would otherwise leave its caller waiting forever.
 * - Workers start on the first request: short runs, whose batches are handled
 *   inline, never pay for starting them.
 */
import { parentPort, Worker, type Transferable } from 'node:worker_threads';

export interface PoolRequest {
  readonly id: number;
}

export interface PoolResponse {
  readonly id: number;
  /** Set when the worker caught an error handling the request. */
  readonly error?: string;
}

export class WorkerPool<Request extends PoolRequest, Response extends PoolResponse> {
  private workers: Worker[] = [];
  private readonly waiting = new Map<number, { resolve: (response: Response) => void; reject: (error: Error) => void }>();
  private readonly busy: number[];
  private readonly script: string;
  private nextId = 0;
  /** Why the pool cannot work any more: a worker died, or destroy() was called. */
  private broken: Error | undefined;

  /** @param label names the pool in errors, e.g. "CPU signer". */
  constructor(
    script: string,
    readonly size: number,
    private readonly label: string,
  ) {
    this.script = script;
    this.busy = new Array<number>(size).fill(0);
  }

  private start(): void {
    this.workers = Array.from({ length: this.size }, () => {
      const worker = new Worker(this.script);
      worker.on('message', (response: Response) => this.settle(response));
      worker.on('error', (error) => this.breakDown(error));
      worker.on('exit', (code) => this.breakDown(new Error(`${this.label} worker exited (code ${code})`)));
      worker.unref();
      return worker;
    });
  }

  /** Sends `body` to worker `index` (transferring `transfer`) and resolves with its answer. */
  request(index: number, body: Omit<Request, 'id'>, transfer: readonly Transferable[] = []): Promise<Response> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.workers.length === 0) this.start();
    const request = { ...body, id: this.nextId++ } as Request;
    const worker = this.workers[index];
    return new Promise<Response>((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      if (this.busy[index]++ === 0) worker.ref();
      worker.postMessage(request, transfer);
    }).finally(() => {
      if (--this.busy[index] === 0) worker.unref();
    });
  }

  destroy(): void {
    this.breakDown(new Error(`${this.label} destroyed`));
    for (const worker of this.workers) void worker.terminate();
  }

  private settle(response: Response): void {
    const waiter = this.waiting.get(response.id);
    if (!waiter) return;
    this.waiting.delete(response.id);
    if (response.error === undefined) waiter.resolve(response);
    else waiter.reject(new Error(`${this.label} worker failed: ${response.error}`));
  }

  private breakDown(error: Error): void {
    this.broken ??= error;
    for (const waiter of this.waiting.values()) waiter.reject(this.broken);
    this.waiting.clear();
  }
}

/**
 * The worker side: answers each request with what `handle` returns (its
 * buffers transferred, not copied), or with the error it threw.
 */
export function serveRequests<Request extends PoolRequest, Response extends PoolResponse>(
  handle: (request: Request) => { readonly response: Omit<Response, 'id' | 'error'>; readonly transfer: readonly Transferable[] },
): void {
  parentPort?.on('message', (request: Request) => {
    try {
      const { response, transfer } = handle(request);
      parentPort!.postMessage({ ...response, id: request.id }, transfer);
    } catch (error) {
      parentPort!.postMessage({ id: request.id, error: String(error) });
    }
  });
}
