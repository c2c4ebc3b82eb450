/**
 * A fixed set of workers that answer requests by id: one implementation for
 * Node's worker threads (workerPool.ts) and the tab's Web Workers
 * (web/webWorkers.ts), which differ only in how a worker is started.
 *
 * - A worker starts on its first request: short runs never pay for it, and a
 *   run that gives work to fewer workers than the pool holds starts only those.
 * - A worker with requests outstanding is ref'd where the platform counts
 *   that (Node); idle ones never keep the process alive.
 * - A worker that errors or exits fails every waiting request and the pool for
 *   good: a dead worker would otherwise leave its caller waiting forever.
 */

export interface PoolRequest {
  readonly id: number;
}

export interface PoolResponse {
  readonly id: number;
  /** Set when the worker caught an error handling the request. */
  readonly error?: string;
}

/** What the pool needs of one worker, whatever starts it. */
export interface PoolWorker<Response> {
  postMessage(message: unknown, transfer: readonly ArrayBuffer[]): void;
  /**
   * Calls back with every answer, and with the error that ended the worker (its message completes "LABEL worker …").
   */
  listen(onMessage: (response: Response) => void, onFailure: (error: Error) => void): void;
  ref?(): void;
  unref?(): void;
  /** Ends the worker: at once, or once it is idle where stopping it mid-task is unsafe (workerPool.ts says why). */
  end(): void;
}

/** What a pool sends a worker to end it once idle (serveRequests closes its port on it). */
export const END_REQUEST = 'end';

export class Pool<Request extends PoolRequest, Response extends PoolResponse> {
  /** By index; undefined until the worker's first request. */
  private readonly workers: (PoolWorker<Response> | undefined)[] = [];
  private readonly waiting = new Map<
    number,
    { resolve: (response: Response) => void; reject: (error: Error) => void }
  >();
  private readonly busy: number[];
  private nextId = 0;
  /** Why the pool cannot work any more: a worker died, or destroy() was called. */
  private broken: Error | undefined;
  /** Set by destroy(): its workers were asked to end and stay ref'd until they do (workerPool.ts says why). */
  private ended = false;

  /** @param label names the pool in errors, e.g. "CPU signer". */
  constructor(
    private readonly spawn: () => PoolWorker<Response>,
    readonly size: number,
    private readonly label: string,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`threads must be a positive integer, got ${size}`);
    this.busy = new Array<number>(size).fill(0);
  }

  /** Sends `body` to worker `index` (transferring `transfer`) and resolves with its answer. */
  request(index: number, body: Omit<Request, 'id'>, transfer: readonly ArrayBuffer[] = []): Promise<Response> {
    if (this.broken) return Promise.reject(this.broken);
    if (!(index >= 0 && index < this.size)) return Promise.reject(new RangeError(`${this.label}: no worker ${index}`));
    const worker = (this.workers[index] ??= this.start());
    const request = { ...body, id: this.nextId++ } as Request;
    return new Promise<Response>((resolve, reject) => {
      this.waiting.set(request.id, { resolve, reject });
      if (this.busy[index]++ === 0) worker.ref?.();
      worker.postMessage(request, transfer);
    }).finally(() => {
      // Not after destroy(): a request rejected by it settles after end() ref'd its worker again.
      if (--this.busy[index] === 0 && !this.ended) worker.unref?.();
    });
  }

  /** Whether worker `index` has started (had a request). */
  started(index: number): boolean {
    return this.workers[index] !== undefined;
  }

  destroy(): void {
    this.ended = true;
    this.breakDown(new Error(`${this.label} destroyed`));
    for (const worker of this.workers) worker?.end();
  }

  private start(): PoolWorker<Response> {
    const worker = this.spawn();
    worker.listen(
      (response) => this.settle(response),
      (error) => this.breakDown(new Error(`${this.label} worker ${error.message}`)),
    );
    worker.unref?.();
    return worker;
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
 * The worker side, on any platform: answers each request with what `handle`
 * returns (its buffers transferred, not copied), or with the error it threw.
 * Requests are handled as they arrive; an async handler's answers may overlap.
 */
export function answerRequests<Request extends PoolRequest, Response extends PoolResponse>(
  port: {
    postMessage(message: unknown, transfer: ArrayBuffer[]): void;
    onRequest(handler: (request: Request) => void): void;
  },
  handle: (
    request: Request,
  ) =>
    | Promise<{ readonly response: Omit<Response, 'id' | 'error'>; readonly transfer: readonly ArrayBuffer[] }>
    | { readonly response: Omit<Response, 'id' | 'error'>; readonly transfer: readonly ArrayBuffer[] },
): void {
  port.onRequest(async (request) => {
    try {
      const { response, transfer } = await handle(request);
      port.postMessage({ ...response, id: request.id }, [...transfer]);
    } catch (error) {
      port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }, []);
    }
  });
}
