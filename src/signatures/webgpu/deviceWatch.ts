/**
 * Turns every way a WebGPU run can go wrong into a prompt rejection, so that
 * the pipeline's fallback finishes the run on the CPU instead of hanging:
 * - device.lost (driver reset, device.destroy(), browser tab backgrounded ...);
 * - errors of our own calls, caught with error scopes around each submission;
 * - any other error on the device (uncapturederror).
 * The first failure sticks: every later sign() rejects at once with it.
 */

const LOSS_GRACE_MS = 100;

export class GpuFailure extends Error {
  override readonly name = 'GpuFailure';
}

export class DeviceWatch {
  private failure: GpuFailure | undefined;
  private rejectFailed!: (error: GpuFailure) => void;
  /** Never resolves; rejects with the first failure. */
  private readonly failed = new Promise<never>((_, reject) => (this.rejectFailed = reject));
  private readonly onUncaptured = (event: Event): void => {
    const error = (event as GPUUncapturedErrorEvent).error;
    this.fail(`uncaptured ${error.constructor.name}: ${error.message}`);
  };

  constructor(private readonly device: GPUDevice) {
    this.failed.catch(() => {}); // observed through guard(); never an unhandled rejection
    device.lost.then((info) => this.fail(`device lost (${info.reason}): ${info.message || 'no message'}`));
    device.addEventListener('uncapturederror', this.onUncaptured);
  }

  fail(reason: string): GpuFailure {
    if (!this.failure) {
      this.failure = new GpuFailure(`WebGPU: ${reason}`);
      this.rejectFailed(this.failure);
    }
    return this.failure;
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /**
   * `promise`, or the device's failure if that comes first. If `promise`
   * itself rejects (a mapAsync aborted, say), that is a failure too; but a
   * device loss often aborts pending work a moment before device.lost
   * resolves, so the loss gets LOSS_GRACE_MS to be the reason reported.
   */
  guard<T>(promise: Promise<T>): Promise<T> {
    const own = promise.catch(async (error: unknown) => {
      await Promise.race([this.failed, new Promise((resolve) => setTimeout(resolve, LOSS_GRACE_MS))]).catch(() => {});
      throw this.fail(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    });
    return Promise.race([own, this.failed]);
  }

  /**
   * Runs `calls` (synchronous WebGPU calls) inside validation, out-of-memory
   * and internal error scopes; the returned promise rejects if any of them
   * raised an error. Scopes are popped before anything else can run, so
   * concurrent users of the device cannot interleave with them.
   */
  scoped<T>(what: string, calls: () => T): { value: T; errors: Promise<void> } {
    const filters: GPUErrorFilter[] = ['internal', 'out-of-memory', 'validation'];
    for (const filter of filters) this.device.pushErrorScope(filter);
    const pop = (): Promise<GPUError | null>[] => filters.map(() => this.device.popErrorScope());
    let value: T;
    try {
      value = calls();
    } catch (error) {
      void Promise.allSettled(pop());
      throw error;
    }
    const popped = pop();
    const errors = this.guard(Promise.all(popped)).then((found) => {
      const error = found.find((e) => e !== null);
      if (error) throw this.fail(`${what} failed: ${error.constructor.name}: ${error.message}`);
    });
    errors.catch(() => {});
    return { value, errors };
  }

  dispose(): void {
    this.device.removeEventListener('uncapturederror', this.onUncaptured);
  }
}
