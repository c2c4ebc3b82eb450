/**
 * `gpudedup serve`'s life: open the index — its one writer on a thread of its
 * own (writerThread.ts), and a read-only view here for queries, moved to
 * each commit before the write is answered — serve it until
 * SIGTERM, SIGINT or SIGHUP, then stop accepting, let the write in flight
 * finish (its commit, or its own rollback if it fails), close the index and
 * resolve, so the process exits 0. A second signal while stopping does not
 * wait: the temporaries go and the process ends at once (128 + the signal);
 * the index keeps its last committed state, as after any crash.
 */
import { constants } from 'node:os';
import { openIndex, type DiskIndex } from '../lshIndex/diskIndex.js';
import type { BackendChoice } from '../options.js';
import type { IndexStats } from '../lshIndex/types.js';
import { removeTemporaries } from '../formats/temporaries.js';
import { startServer, type RunningServer, type ServerOptions } from './http.js';
import { checkExposure } from './auth.js';
import { WriterThread } from './writerThread.js';

export interface ServeConfig extends ServerOptions {
  readonly dir: string;
  readonly backend: BackendChoice;
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

/** Serves `dir` until a signal; resolves once the index is closed. */
export async function serveIndex(config: ServeConfig, hooks: ServeHooks): Promise<void> {
  checkExposure(config.host, config.token); // before the index is opened (and locked)
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
  const { writer, lockNote } = await WriterThread.open({ dir: config.dir, backend: config.backend, threads: config.threads });
  if (lockNote !== undefined) hooks.onNote(lockNote);
  let reader: DiskIndex | undefined;
  let server: RunningServer;
  try {
    reader = await openIndex(config.dir, { readOnly: true, backend: config.backend, threads: config.threads });
    const view = reader;
    server = await startServer({ reader: view, writer, afterWrite: () => view.refresh() }, config);
  } catch (error) {
    await reader?.close();
    await writer.close();
    throw error;
  }
  hooks.onListening(server, await reader.stats());
  hooks.onStopping(await stopped);
  try {
    await server.stop();
  } finally {
    await writer.close();
    await reader.close();
  }
}
