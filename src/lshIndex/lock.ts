/**
 * One writer per index directory: `writer.lock`, created with O_EXCL, holds
 * the writer's pid and host. A lock whose pid is no longer running on this
 * host (a writer killed outright) is taken over with a note; any other is
 * refused with IndexLockedError. Readers take no lock.
 */
import { closeSync, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const LOCK_FILE = 'writer.lock';

/** A second writer: names the pid (and host) that holds the lock and how to proceed. */
export class IndexLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly pid: number,
    readonly host: string,
  ) {
    super(
      `index is locked by another writer: pid ${pid} on ${host} holds ${lockFile}; wait for it to finish (or stop it), ` +
        `open the index read-only to query it, or delete the lock file if that process is certainly gone`,
    );
    this.name = 'IndexLockedError';
  }
}

export interface WriterLock {
  readonly file: string;
  /** A stale lock (dead pid) that was taken over, as a one-line note; undefined when none. */
  readonly note?: string;
  release(): void;
}

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly since?: string;
}

/** Whether a process of this host is running (EPERM: it is, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? (parsed as Holder) : undefined;
  } catch {
    return undefined; // gone, or being written this instant
  }
}

export function acquireLock(dir: string): WriterLock {
  const file = join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  let note: string | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      try {
        writeSync(fd, JSON.stringify(me));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return {
        file,
        note,
        release: () => {
          if (holderOf(file)?.pid === me.pid) unlinkSync(file);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(file);
    if (holder === undefined) continue; // removed meanwhile, or half written: look again
    if (holder.host !== me.host || holder.pid === me.pid || running(holder.pid)) throw new IndexLockedError(file, holder.pid, holder.host);
    // Its writer is gone (killed outright): what it left uncommitted is cleaned by this writer.
    note = `took over the lock of pid ${holder.pid} on ${holder.host}, which is no longer running (${file})`;
    try {
      unlinkSync(file);
    } catch {
      // another writer took it over first: the next attempt meets its lock
    }
  }
  const holder = holderOf(file);
  throw new IndexLockedError(file, holder?.pid ?? -1, holder?.host ?? 'unknown host');
}
