/**
 * `--weights idf` in the tab: the picked files' document frequencies, counted by the library's countIdf (the CLI's
 * pass, src/dedup/idfCount.ts) from the texts the CLI would read (the first pass's own parser over the same units),
 * then registered so that the signers' shingle options carry the table.
 */
import { countIdf } from '../src/dedup/idfCount.js';
import { parseUnit } from '../src/firstPass/readUnit.js';
import type { UnitReadOptions } from '../src/firstPass/protocol.js';
import { registerIdfTable, type IdfTable } from '../src/shingles/idfWeights.js';
import type { RunSettings } from './protocol.js';
import { BROWSER_SOURCES, webInputUnits } from './webSources.js';

/** How the first pass reads the picked files (the CLI's defaults past the page's settings). */
export function tabReadOptions(settings: RunSettings): UnitReadOptions {
  return { textField: settings.textField, idField: settings.idField, skipInvalid: settings.skipInvalid, strict: false };
}

export async function tabIdfTable(
  files: readonly File[],
  settings: RunSettings,
  onBytes: (bytes: number) => void,
): Promise<IdfTable> {
  const shingling = {
    shingle: settings.shingle,
    n: settings.n,
    nfkc: settings.nfkc,
    stripPunctuation: settings.stripPunctuation,
  };
  const table = await countIdf(() => textsOf(files, tabReadOptions(settings), onBytes), shingling);
  registerIdfTable(table);
  return table;
}

/** Every document's text, in order; a malformed line refuses the run here, as the signing pass would. */
async function* textsOf(
  files: readonly File[],
  read: UnitReadOptions,
  onBytes: (bytes: number) => void,
): AsyncGenerator<string> {
  for await (const unit of webInputUnits(files, onBytes)) {
    const parsed = await parseUnit(unit, read, BROWSER_SOURCES);
    if (parsed.error !== undefined) throw new Error(parsed.error); // as the first pass refuses it (firstPass.ts)
    for (const document of parsed.documents) yield document.text;
  }
}
