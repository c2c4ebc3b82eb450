/**
 * The output checks of the index commands (before any work): no output may be
 * an input or lie inside the index directory (outputChecks.ts).
 */
import { readdir, stat } from 'node:fs/promises';
import type { InputFile } from '../../io/readDocuments.js';
import { checkOutputs, OutputPathError, refuseInsideDirectory, type NamedOutput } from '../shared/outputChecks.js';

export async function checkIndexOutputs(
  dir: string,
  outputs: readonly NamedOutput[],
  corpus: readonly InputFile[],
): Promise<void> {
  await checkOutputs(outputs, [...corpus, { path: dir, role: 'the index' }]);
  await refuseInsideDirectory(outputs, dir, 'the index');
}

/**
 * `index create` refuses a directory that is not empty (an index or
 * anything else) before it reads its corpus, as the index itself would after.
 */
export async function checkNewIndexDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined) return;
  if (!info.isDirectory())
    throw new OutputPathError(`${dir}: is a file; an index is a directory (give a new or empty one)`);
  const entries = await readdir(dir);
  if (entries.includes('manifest.json'))
    throw new OutputPathError(
      `${dir} is already an index: add to it with gpudedup index add, or choose a new directory`,
    );
  if (entries.length > 0)
    throw new OutputPathError(
      `${dir} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', …' : ''}): an index is created ` +
        `in a new or empty directory`,
    );
}

/**
 * A directory without the index's manifest, said in the command line's words (the library's own message names
 * createIndex, which a user of the command line never calls): before the index is opened.
 */
export async function checkIsIndex(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) return; // the index's own message says what it is
  if (!(await readdir(dir)).includes('manifest.json'))
    throw new RangeError(`${dir} is not an index (no manifest.json): create one with gpudedup index create ${dir}`);
}
