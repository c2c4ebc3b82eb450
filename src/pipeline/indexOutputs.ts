/**
 * The output checks of the index commands (before any work): no output may be
 * an input or lie inside the index directory (outputChecks.ts).
 */
import type { InputFile } from '../io/readDocuments.js';
import { checkOutputs, refuseInsideDirectory, type NamedOutput } from './outputChecks.js';

export async function checkIndexOutputs(dir: string, outputs: readonly NamedOutput[], corpus: readonly InputFile[]): Promise<void> {
  await checkOutputs(outputs, [...corpus, { path: dir, role: 'the index' }]);
  await refuseInsideDirectory(outputs, dir, 'the index');
}
