/**
 * `gpudedup serve`'s life: open the index — its one writer on a thread of its
 * own (writerThread.ts), and a read-only view here for queries (with
 * `threads` > 1, the default on more than one core, the queries go to that
 * many query threads instead, each with its own view: queryPool.ts), moved
 * to each commit before the write is answered; with `readOnly`, no writer, and
 * the view follows another process's commits — serve it until
 * SIGTERM, SIGINT or SIGHUP, then stop accepting, let the write in flight
 * finish (its commit, or its own rollback if it fails), close the index and
 * resolve, so the process exits 0. A second signal while stopping does not
 * wait: the temporaries go and the process ends at once (128 + the signal);
 * the index keeps its last committed state, as after any crash.
 */
import { availableParallelism, constants } from 'node:os';
import { openIndex, type DiskIndex } from '../lshIndex/diskIndex.js';
import type { BackendChoice } from '../options.js';
import type { IndexStats } from '../lshIndex/types.js';
import { removeTemporaries } from '../formats/files/temporaries.js';
import { startServer, type RunningServer, type ServerOptions } from './http.js';
import { allowedHostEntry, allowedOriginEntry, checkExposure } from './auth.js';
import { QueryPool } from './queryPool.js';
import { WriterThread } from './writerThread.js';

export interface ServeConfig extends ServerOptions {
  readonly dir: string;
  /** No writer (no lock): /add and /remove answer 403; the view follows another writer's commits. */
  readonly readOnly?: boolean;
  readonly backend: BackendChoice;
  /**
   * Query threads (queryPool.ts), and the CPU backend's threads of the writer; 1: queries on the server's thread;
   * undefined: one per core.
   */
  readonly threads?: number;
}

export interface ServeHooks {
  /** The server listens (the index is open): its address and what it serves. */
  onListening(server: RunningServer, stats: IndexStats): void;
  /** A signal arrived: stopping (one line to say so). */
  onStopping(signal: NodeJS.Signals): void;
  /** Something to tell the user (a stale writer lock taken over). */
  onNote(line: string): void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** How often a read-only server looks for another writer's commit. */
export const REFRESH_MS = 1000;

/** Serves `dir` until a signal; resolves once the index is closed. */
export async function serveIndex(config: ServeConfig, hooks: ServeHooks): Promise<void> {
  // Before the index is opened (and locked): a bad --host, --token, --allow-host or --allow-origin.
  checkExposure(config.host, config.token);
  config.allowHosts?.forEach(allowedHostEntry);
  config.allowOrigins?.forEach(allowedOriginEntry);
  // Listening for signals from the start: one during start-up stops the server as soon as it is up.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    let stopping = false;
    for (const signal of SIGNALS) {
      process.on(signal, () => {
        if (stopping) {
          removeTemporaries();
          process.exit(128 + constants.signals[signal]);
        }
        stopping = true;
        resolve(signal);
      });
    }
  });
  const opened = config.readOnly
    ? undefined
    : await WriterThread.open({ dir: config.dir, backend: config.backend, threads: config.threads });
  const writer = opened?.writer;
  if (opened?.lockNote !== undefined) hooks.onNote(opened.lockNote);
  let views: Views | undefined;
  let server: RunningServer;
  try {
    views = await openViews(config);
    const { reader, pool, refresh } = views;
    server = await startServer(
      { reader: pool ?? reader, writer, afterWrite: refresh, problem: () => writer?.failure ?? pool?.failure },
      config,
    );
  } catch (error) {
    await views?.close();
    await writer?.close();
    throw error;
  }
  const follow = config.readOnly ? followCommits(views.refresh, hooks) : undefined;
  hooks.onListening(server, await views.reader.stats());
  hooks.onStopping(await stopped);
  if (follow) clearInterval(follow);
  try {
    await server.stop();
  } finally {
    await writer?.close();
    await views.close();
  }
}

/** The server's read-only view (stats; queries too with one thread) and, with more, the query threads. */
interface Views {
  readonly reader: DiskIndex;
  readonly pool?: QueryPool;
  /** Every view moved to the newest commit (resolves when all have). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/** Query threads: --threads, else one per core; with one, queries run on the server's thread. */
export const queryThreadsOf = (threads: number | undefined): number => threads ?? availableParallelism();

async function openViews(config: ServeConfig): Promise<Views> {
  const options = { readOnly: true, backend: config.backend, threads: config.threads } as const;
  const reader = await openIndex(config.dir, options);
  const size = queryThreadsOf(config.threads);
  let pool: QueryPool | undefined;
  try {
    if (size > 1) pool = await QueryPool.open({ dir: config.dir, backend: config.backend }, size, reader);
  } catch (error) {
    await reader.close();
    throw error;
  }
  return {
    reader,
    pool,
    refresh: async () => void (await Promise.all([reader.refresh(), pool?.refresh()])),
    close: async () => {
      try {
        await pool?.close();
      } finally {
        await reader.close();
      }
    },
  };
}

/**
 * A read-only server's view moves to another writer's newest commit, checked every REFRESH_MS; a failure keeps the view
 * and is told once.
 */
function followCommits(refresh: () => Promise<void>, hooks: ServeHooks): NodeJS.Timeout {
  let failing = false;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    refresh().then(
      () => {
        busy = false;
        failing = false;
      },
      (error: unknown) => {
        busy = false;
        if (!failing)
          hooks.onNote(
            `cannot follow the index's newest commit, still serving the one before: ${(error as Error).message}`,
          );
        failing = true;
      },
    );
  }, REFRESH_MS);
  return timer.unref();
}
