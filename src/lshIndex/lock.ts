/**
 * One writer per index directory: a lock file created with O_EXCL holding
 * the writer's pid and host. A lock whose pid is dead (same host) is taken
 * over with a note; any other is refused with IndexLockedError.
 */

/** A second writer: names the pid (and host) that holds the lock and how to proceed. */
export class IndexLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
    readonly host: string,
  ) {
    super(`index is locked by another writer: pid ${pid} on ${host} holds ${lockFile}; wait for it to finish, open the index read-only, or delete the lock file if that process is gone`);
    this.name = 'IndexLockedError';
  }
}

export interface WriterLock {
  readonly file: string;
  /** A stale lock (dead pid) that was taken over, as a one-line note; undefined when none. */
  readonly note?: string;
  release(): void;
}

export function acquireLock(_dir: string): WriterLock {
  throw new Error('not yet');
}
