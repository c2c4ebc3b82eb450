/**
 * The writes (add, remove) run one at a time, in arrival order: the index has
 * one writer, and a write's result must not depend on another's timing. At
 * most `capacity` writes wait behind the one running; past that the request
 * is refused at once with 503 and `Retry-After` (a client retries later
 * rather than piling up memory in the server). Reads never enter this queue.
 */
import { RequestError } from './requests.js';

/** Seconds a refused client is told to wait. */
export const RETRY_AFTER_SECONDS = 1;

export class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private running = 0;
  private closed = false;
  /** Writes accepted but not yet started, to refuse on close. */
  private readonly pending = new Set<{ reject: (error: Error) => void }>();

  constructor(readonly capacity: number) {
    if (!(Number.isInteger(capacity) && capacity >= 0))
      throw new RangeError(`queue capacity must be a non-negative integer, got ${capacity}`);
  }

  /** Writes waiting to start (not counting the one running). */
  get queued(): number {
    return this.waiting;
  }

  get busy(): boolean {
    return this.running > 0;
  }

  /** Runs `task` after every write accepted before it; refuses (503) when the queue is full or closed. */
  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed)
      throw new RequestError('the server is shutting down', 503, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
    if (this.waiting >= this.capacity && (this.running > 0 || this.waiting > 0)) {
      throw new RequestError(
        `too many writes waiting (${this.waiting}, the most is ${this.capacity}): retry later`,
        503,
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    this.waiting++;
    const result = new Promise<T>((resolve, reject) => {
      const entry = { reject };
      this.pending.add(entry);
      this.tail = this.tail.then(async () => {
        this.waiting--;
        if (!this.pending.delete(entry)) return; // refused by close() before it started
        this.running++;
        try {
          resolve(await task());
        } catch (error) {
          reject(error);
        } finally {
          this.running--;
        }
      });
    });
    return result;
  }

  /**
   * Stops taking writes: the ones waiting are refused (503, they never ran);
   * resolves when the one running has finished.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.pending)
      entry.reject(
        new RequestError('the server is shutting down', 503, { 'Retry-After': String(RETRY_AFTER_SECONDS) }),
      );
    this.pending.clear();
    await this.tail;
  }
}
