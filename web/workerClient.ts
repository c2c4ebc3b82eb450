/**
 * The page's side of the dedup worker: one worker at a time, replaced on
 * Cancel (terminate() stops it at once, whatever it was doing); requests from
 * the inspector are answered by id.
 */
import type {
  BackendProbe,
  ClusterMember,
  ClusterRow,
  Comparison,
  Downloads,
  FromWorker,
  InspectorList,
  ParquetTable,
  RunSettings,
  RunSummary,
  SpanDownloads,
  SpanSettings,
  SpanSummary,
  StageProgress,
  ToWorker,
} from './protocol.js';

export interface RunHandlers {
  progress(progress: StageProgress): void;
  result(summary: RunSummary, downloads: Downloads): void;
  error(message: string): void;
}

export interface SpanHandlers {
  progress(progress: StageProgress): void;
  result(summary: SpanSummary, downloads: SpanDownloads): void;
  error(message: string): void;
}

export class WorkerClient {
  private worker!: Worker;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (message: FromWorker) => void; reject: (error: Error) => void }
  >();
  private handlers: RunHandlers | undefined;
  private spanHandlers: SpanHandlers | undefined;
  probe!: Promise<BackendProbe>;

  constructor() {
    this.start();
  }

  private start(): void {
    this.worker = new Worker(new URL('./dedupWorker.ts', import.meta.url), { type: 'module', name: 'gpudedup' });
    let answerProbe: (probe: BackendProbe) => void = () => undefined;
    this.probe = new Promise((resolve) => (answerProbe = resolve));
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data;
      switch (message.type) {
        case 'probe':
          answerProbe(message.probe);
          return;
        case 'progress':
          (this.handlers ?? this.spanHandlers)?.progress(message.progress);
          return;
        case 'result':
          this.handlers?.result(message.summary, message.downloads);
          this.handlers = undefined;
          return;
        case 'substrings-result':
          this.spanHandlers?.result(message.summary, message.downloads);
          this.spanHandlers = undefined;
          return;
        case 'error':
          this.failed(message.message);
          return;
        default: {
          const waiting = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.type === 'reply-error') waiting?.reject(new Error(message.message));
          else waiting?.resolve(message);
        }
      }
    };
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.failed(`the dedup worker failed: ${event.message || 'unknown error'}`);
    };
    this.send({ type: 'probe' });
  }

  /** The run in progress (a dedup or a span search) ends with this message. */
  private failed(message: string): void {
    (this.handlers ?? this.spanHandlers)?.error(message);
    this.handlers = undefined;
    this.spanHandlers = undefined;
  }

  /** Whether a run (a dedup or a span search) is in progress: the worker does one at a time. */
  get busy(): boolean {
    return this.handlers !== undefined || this.spanHandlers !== undefined;
  }

  private send(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  run(files: File[], reference: File[], settings: RunSettings, handlers: RunHandlers): void {
    this.handlers = handlers;
    this.send({ type: 'run', files, reference, settings });
  }

  /** The repeated-span search (`gpudedup substrings`) over the files, in the same worker. */
  substrings(files: File[], settings: SpanSettings, handlers: SpanHandlers): void {
    this.spanHandlers = handlers;
    this.send({ type: 'substrings', files, settings });
  }

  /** Stops the run now: the worker is terminated and a fresh one started (its inspector state goes with it). */
  cancel(): void {
    this.worker.terminate();
    this.handlers = undefined;
    this.spanHandlers = undefined;
    for (const waiting of this.pending.values()) waiting.reject(new Error('cancelled'));
    this.pending.clear();
    this.start();
  }

  private request<T extends FromWorker>(make: (id: number) => ToWorker): Promise<T> {
    const id = this.nextId++;
    return new Promise<FromWorker>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send(make(id));
    }) as Promise<T>;
  }

  async page(list: InspectorList, offset: number, count: number): Promise<{ rows: ClusterRow[]; total: number }> {
    return this.request<Extract<FromWorker, { type: 'page' }>>((id) => ({ type: 'page', id, list, offset, count }));
  }

  async members(cluster: number): Promise<ClusterMember[]> {
    return (await this.request<Extract<FromWorker, { type: 'cluster' }>>((id) => ({ type: 'cluster', id, cluster })))
      .members;
  }

  async compare(kept: number, removed: number): Promise<Comparison> {
    return (
      await this.request<Extract<FromWorker, { type: 'compare' }>>((id) => ({ type: 'compare', id, kept, removed }))
    ).comparison;
  }

  /** A table of the last run as Parquet, made now (the worker reads the corpus again for the kept documents). */
  async parquet(table: ParquetTable): Promise<Blob> {
    return (await this.request<Extract<FromWorker, { type: 'parquet' }>>((id) => ({ type: 'parquet', id, table })))
      .blob;
  }
}
