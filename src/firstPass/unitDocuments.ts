/**
 * A second read of the same units on this thread, for what needs the
 * documents themselves (the tab's downloads and inspector): the workers'
 * parser, each document with its line's bytes when it has one, so a kept
 * line is written exactly as it came in. `onInvalid` hears each line skipped
 * (with read.skipInvalid).
 */
import type { InputUnit, UnitReadOptions } from './protocol.js';
import type { FirstPassSources } from './ports.js';
import { parseUnit } from './readUnit.js';

export interface UnitDocument {
  readonly id: string;
  readonly text: string;
  readonly record?: Record<string, unknown>;
  /** A JSON line's bytes, its line end included. */
  readonly lineBytes?: Uint8Array;
}

export async function* unitDocuments(
  units: AsyncIterable<InputUnit> | Iterable<InputUnit>,
  read: UnitReadOptions,
  sources: FirstPassSources,
  onInvalid?: (message: string) => void,
): AsyncGenerator<UnitDocument> {
  for await (const unit of units) {
    const parsed = await parseUnit(unit, read, sources);
    if (parsed.error !== undefined) throw new Error(parsed.error);
    for (const message of parsed.invalid) onInvalid?.(message);
    for (const doc of parsed.documents) {
      const lineBytes =
        unit.kind === 'lines' && doc.start >= 0
          ? unit.bytes.subarray(doc.start - unit.offset, doc.end - unit.offset)
          : undefined;
      yield { id: doc.id, text: doc.text, record: doc.record, lineBytes };
    }
  }
}
