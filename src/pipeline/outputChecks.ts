/**
 * Checks made before any work, so that a run never destroys its own input or
 * fails at the end on an output path it could have refused at the start:
 * every output must be a file name (not a directory) and must not be any input
 * file (compared by device and inode, so symlinks and hard links are caught).
 */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { InputFile } from '../io/readDocuments.js';

export interface NamedOutput {
  /** How the user named it, e.g. `-o` or `--clusters`. */
  readonly flag: string;
  readonly path: string;
}

export async function checkOutputs(outputs: readonly NamedOutput[], inputs: readonly InputFile[]): Promise<void> {
  // Two outputs under one name would share one .partial file and overwrite each other.
  const named = new Map<string, string>();
  for (const { flag, path } of outputs) {
    const other = named.get(resolve(path));
    if (other !== undefined) throw new OutputPathError(`${other} and ${flag} both name ${path}: give each output its own file`);
    named.set(resolve(path), flag);
  }
  const inputIds = new Map<string, string>();
  for (const input of inputs) {
    if (input.path === '-') continue;
    const info = await stat(input.path).catch(() => undefined);
    if (info !== undefined) inputIds.set(`${info.dev}:${info.ino}`, input.path);
  }
  for (const { flag, path } of outputs) {
    const info = await stat(path).catch(() => undefined);
    if (info === undefined) continue; // a new file
    if (info.isDirectory()) throw new OutputPathError(`${flag} ${path}: is a directory; give a file name`);
    const input = inputIds.get(`${info.dev}:${info.ino}`);
    if (input !== undefined) {
      throw new OutputPathError(`${flag} ${path}: is ${input === path ? 'an input' : `the input ${input}`}; writing it would destroy it (give another output name)`);
    }
  }
}

/** An output path refused before any work. */
export class OutputPathError extends Error {
  override readonly name = 'OutputPathError';
}
