/**
 * The persistent index (Node): a directory of immutable segments and a
 * manifest replaced by atomic rename (docs/index.md, "On-disk
 * format"). One writer (writer.lock), any number of readers; each reader
 * sees the manifest it opened until refresh(). A commit writes the new
 * files, fsyncs them, then renames the new manifest into place: a crash
 * before the rename leaves the previous state (plus files the next writer
 * removes), after it the new one.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkOpenArguments } from './arguments.js';
import { openState, openWithRetry } from './diskState.js';
import { IndexParameterError } from './errors.js';
import { acquireLock } from './lock.js';
import { IDF_TABLE, indexIdfBytes } from './idfFile.js';
import { FORMAT, FORMAT_VERSION, MANIFEST, readManifest, removeUnreferenced, writeManifest } from './manifest.js';
import { parameterDifferences, resolveParameters, type IndexOptions, type OpenOptions } from './options.js';
import { PersistentIndex, type DiskIndex } from './persistentIndex.js';

export type { IndexOptions, OpenOptions } from './options.js';
export { IndexLockedError } from './lock.js';
export { CorruptIndexError, IndexFormatError, IndexIdError, IndexParameterError } from './errors.js';
export type { CompactResult, DiskIndex } from './persistentIndex.js';

/** Creates an index in `dir` (missing or empty); refuses an existing index. */
export async function createIndex(dir: string, options: IndexOptions & OpenOptions = {}): Promise<DiskIndex> {
  checkOpenArguments(dir, options, 'createIndex');
  const { backend, threads, readOnly, expect: _expect, checksums, ...indexOptions } = options;
  if (readOnly) throw new RangeError('createIndex: an index is created by its writer (readOnly is for openIndex)');
  const parameters = resolveParameters(indexOptions);
  mkdirSync(dir, { recursive: true });
  if (existsSync(`${dir}/${MANIFEST}`))
    throw new Error(
      `${dir} is already an index (it has ${MANIFEST}): open it with openIndex, or choose an empty directory`,
    );
  const lock = acquireLock(dir);
  try {
    const others = readdirSync(dir).filter((name) => name !== 'writer.lock');
    if (others.length > 0)
      throw new Error(
        `${dir} is not empty (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}): an index is created ` +
          `in a new or empty directory`,
      );
    const idf = indexIdfBytes(parameters);
    if (idf !== undefined) writeFileSync(join(dir, IDF_TABLE), idf); // before the manifest that records it
    writeManifest(dir, {
      format: FORMAT,
      version: FORMAT_VERSION,
      generation: 0,
      parameters,
      segments: [],
      documents: 0,
      removedDocuments: 0,
    });
    return new PersistentIndex(dir, openState(dir, readManifest(dir), 'open'), { backend, threads, checksums }, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Opens an existing index: a writer (takes the lock) unless `readOnly`. */
export async function openIndex(dir: string, options: OpenOptions = {}): Promise<DiskIndex> {
  checkOpenArguments(dir, options, 'openIndex');
  if (!options.readOnly) readManifest(dir); // not an index: say so before taking (creating) its lock
  const lock = options.readOnly ? undefined : acquireLock(dir);
  try {
    const manifest = readManifest(dir);
    if (options.expect !== undefined) {
      const differences = parameterDifferences(manifest.parameters, options.expect);
      if (differences.length > 0)
        throw new IndexParameterError(differences, `${dir} was created with other parameters`);
    }
    if (lock !== undefined) removeUnreferenced(dir, manifest); // what an interrupted writer left
    return new PersistentIndex(dir, openWithRetry(dir, manifest, options.checksums), options, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}
