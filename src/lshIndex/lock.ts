/**
 * One writer per index directory: `writer.lock`, created with O_EXCL, holds
 * the writer's pid and host. A lock whose pid is no longer running on this
 * host (a writer killed outright) is taken over with a note; so is a lock
 * that stays empty or unreadable (a writer that failed to write it: a full
 * disk); any other is refused with IndexLockedError. A lock that cannot be
 * written whole is removed at once, and a writer ended by SIGINT, SIGTERM or
 * SIGHUP (or by process.exit) removes its lock: it is registered as a
 * temporary (src/formats/files/temporaries.ts). Readers take no lock.
 */
import { closeSync, fsyncSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { forgetTemporary, registerTemporary } from '../formats/files/temporaries.js';
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

/**
 * The lock's holder; 'gone' when there is no lock file; 'unreadable' when it holds no valid holder (empty, garbage,
 * being written).
 */
function holderOf(file: string): Holder | 'gone' | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? (parsed as Holder) : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/**
 * How long an unreadable lock is given to become readable (its writer between creating and writing it) before it is
 * stale.
 */
const UNREADABLE_GRACE_MS = 200;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Creates the lock, holding `me`; false where one exists. */
function createLock(dir: string, file: string, me: Holder): boolean {
  try {
    const fd = openSync(file, 'wx');
    try {
      try {
        writeSync(fd, JSON.stringify(me));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      // A full disk (or any failure) must not leave an empty lock that refuses every later writer.
      try {
        unlinkSync(file);
      } catch {
        // nothing more to do: the next writer treats an empty lock as stale
      }
      throw error;
    }
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
      throw new Error(
        `${dir}: cannot take the writer lock (${file}: ` +
          `${code === 'EROFS' ? 'a read-only file system' : 'permission denied'}): writing needs a directory this ` +
          `user may write; to query or inspect, open it read-only`,
      );
    }
    if (code !== 'EEXIST') throw error;
    return false;
  }
}

export function acquireLock(dir: string): WriterLock {
  const file = join(dir, LOCK_FILE);
  const me: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  let note: string | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createLock(dir, file, me)) {
      // Removed on every exit of this process, a signal's included (SIGKILL aside: that lock is stale to the next
      // writer).
      registerTemporary(file);
      return {
        file,
        note,
        release: () => {
          forgetTemporary(file);
          const holder = holderOf(file);
          if (typeof holder === 'object' && holder.pid === me.pid) unlinkSync(file);
        },
      };
    }
    let holder = holderOf(file);
    if (holder === 'gone') continue; // removed meanwhile: take it
    if (holder === 'unreadable') {
      // Perhaps being written this instant: give its writer a moment. Still unreadable: its writer failed (a full
      // disk) or it is garbage; either way no writer holds it.
      sleep(UNREADABLE_GRACE_MS);
      holder = holderOf(file);
      if (holder === 'gone') continue;
    }
    if (holder === 'unreadable') {
      note = `took over an empty or unreadable lock, which no writer holds (${file})`;
    } else {
      if (holder.host !== me.host || holder.pid === me.pid || running(holder.pid))
        throw new IndexLockedError(file, holder.pid, holder.host);
      // Its writer is gone (killed outright): what it left uncommitted is cleaned by this writer.
      note = `took over the lock of pid ${holder.pid} on ${holder.host}, which is no longer running (${file})`;
    }
    try {
      unlinkSync(file);
    } catch {
      // another writer took it over first: the next attempt meets its lock
    }
  }
  const holder = holderOf(file);
  const known = typeof holder === 'object' ? holder : undefined;
  throw new IndexLockedError(file, known?.pid ?? -1, known?.host ?? 'unknown host');
}
