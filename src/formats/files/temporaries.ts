/**
 * Every temporary file or directory a run creates (outputs being written,
 * spilled signatures, staged Parquet rows, engine scratch directories) is
 * registered here until it is renamed into place or removed, and whatever is
 * still registered is removed when the process exits: normally, by
 * process.exit, or (once the command line installs it) on SIGINT, SIGTERM or
 * SIGHUP. Resumable checkpoints (`gpudedup sign`'s `NAME.partial`) are not
 * registered: an interrupted run keeps them for `--resume`.
 *
 * Temporary names cannot collide with an input: each is a hidden name with
 * the process id and a random part, `.NAME.<pid>-<random>.<tag>`, beside the
 * final file, and is created with O_EXCL, so an existing file is never
 * overwritten; a directory walk skips dot-files, so a leftover is never read
 * as input.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { constants } from 'node:os';

const registered = new Set<string>();

/** Told of every change to the registry (the filtered child's watchdog keeps a copy: src/cli/quietNative.ts). */
let observer: ((path: string, live: boolean) => void) | undefined;

/** Calls `watch` for each temporary now registered, then for every later registration (true) and removal (false). */
export function observeTemporaries(watch: (path: string, live: boolean) => void): void {
  observer = watch;
  for (const path of registered) watch(path, true);
}

export function registerTemporary(path: string): void {
  registered.add(path);
  observer?.(path, true);
}

/**
 * A new directory in `parent` whose name starts with `prefix`, made and registered in one synchronous step, so that a
 * signal never finds it unregistered.
 */
export function temporaryDirectory(parent: string, prefix: string): string {
  const dir = mkdtempSync(join(parent, prefix));
  registerTemporary(dir);
  return dir;
}

/** The file is gone or renamed into place: no longer ours to remove. */
export function forgetTemporary(path: string): void {
  registered.delete(path);
  observer?.(path, false);
}

/** Removes a temporary now (file or directory; already gone is fine). */
export function removeTemporary(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Exiting anyway: nothing better to do with a file that will not go.
  }
  forgetTemporary(path);
}

/**
 * Removes a temporary on the file system's threads, not this one (unlinking a spill of gigabytes takes a while). It
 * stays registered until it is gone, so an exit meanwhile still removes it.
 */
export async function removeTemporaryBehind(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true }).catch(() => undefined);
  forgetTemporary(path);
}

/** Removes every temporary still registered (synchronously: it runs at exit). */
export function removeTemporaries(): void {
  for (const path of [...registered]) removeTemporary(path);
}

process.on('exit', removeTemporaries);

/** A hidden name beside `path` that no earlier file has: `.NAME.<pid>-<random>.<tag>`. */
export function temporaryName(path: string, tag = 'partial'): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(6).toString('hex')}.${tag}`);
}

/**
 * Creates an empty, registered temporary beside `path` under a new name
 * (O_EXCL: never an existing file) and returns the name, for writers that
 * open the file themselves.
 */
export function reserveTemporary(path: string, tag = 'partial'): string {
  for (;;) {
    const name = temporaryName(path, tag);
    try {
      closeSync(openSync(name, 'wx', 0o644));
      registerTemporary(name);
      return name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

const interruptNotes = new Set<() => void>();

/** Something to say (to standard error) when a signal ends the run, before temporaries are removed. */
export function onInterrupt(note: () => void): () => void {
  interruptNotes.add(note);
  return () => interruptNotes.delete(note);
}

let installed = false;

/**
 * The command line's signal handling: SIGINT, SIGTERM and SIGHUP remove the
 * temporaries and end the process with 128 + the signal's number (130, 143,
 * 129), as a shell reports a process killed by it. A second signal while
 * exiting is ignored (Ctrl-C reaches the filtering parent's child twice:
 * from the terminal and forwarded).
 */
export function installSignalCleanup(): void {
  if (installed) return;
  installed = true;
  let exiting = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (exiting) return;
      exiting = true;
      for (const note of interruptNotes) {
        try {
          note();
        } catch {
          // a note must not keep the temporaries from going
        }
      }
      removeTemporaries();
      process.exit(128 + constants.signals[signal]);
    });
  }
}
