/**
 * `gpudedup index remove DIR --ids FILE`: the ids read whole (a bad row is
 * refused, naming its file and line, before the index is opened), then removed
 * in one commit. Unknown ids are counted, not an error.
 */
import { readIdList } from '../../formats/idList.js';
import { openIndex } from '../../lshIndex/diskIndex.js';

export interface RemoveSummary {
  /** Distinct ids asked for. */
  readonly requested: number;
  readonly removed: number;
  /** Documents live after the removal. */
  readonly documents: number;
}

export async function removeFromIndex(dir: string, idsFile: string, idField: string): Promise<RemoveSummary> {
  const ids = [...new Set(await readIdList(idsFile, idField))];
  const index = await openIndex(dir, { backend: 'cpu' });
  try {
    const { removed } = await index.remove(ids);
    const { documents } = await index.stats();
    return { requested: ids.length, removed, documents };
  } finally {
    await index.close();
  }
}
