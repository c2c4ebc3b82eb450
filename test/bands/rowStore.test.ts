// RowStore: rows appended in batches come out as one matrix, in order: held in chunks without a spill, in one shared
// buffer of the limit's size with one (none joined), in the chunks again where the platform refuses that buffer;
// past the limit every row goes to the sink, in order.
import { describe, expect, it } from 'vitest';
import { RowStore, type RowSink } from '../../src/bands/rowStore.js';
import { isShared } from '../../src/bands/sharedMemory.js';
import type { SignatureMatrix } from '../../src/bands/signatureMatrix.js';
import type { SpilledSignatures } from '../../src/bands/spilledSignatures.js';

const k = 4;
const width = 2 * k; // 64-bit slots
/** `rows` rows whose words count up from `first` row's. */
const batch = (first: number, rows: number) => Uint32Array.from({ length: rows * width }, (_, i) => first * width + i);
const all = (rows: number) => batch(0, rows);

function fill(store: RowStore, sizes: readonly number[]): number {
  let rows = 0;
  for (const size of sizes) {
    store.append(batch(rows, size));
    rows += size;
  }
  return rows;
}

function recordingSpill(limitBytes: number) {
  const received: Uint32Array[] = [];
  const gave: Uint32Array[] = [];
  const sink: RowSink = {
    append: (rows, given) => {
      received.push(rows.slice());
      if (given) gave.push(rows);
    },
    finish: () => ({ spilled: true }) as unknown as SpilledSignatures,
  };
  return { spill: { limitBytes, open: () => sink }, received, gave };
}

describe('RowStore', () => {
  it('without a spill: chunks joined into one matrix, in order', () => {
    const store = new RowStore(k, 64);
    const rows = fill(store, [3, 1, 5]);
    const m = store.finish() as SignatureMatrix;
    expect(m.count).toBe(rows);
    expect([...m.words]).toEqual([...all(rows)]);
  });

  it('with a spill it never reaches: the rows in one shared buffer, the matrix a view of it', () => {
    const { spill, received } = recordingSpill(1000 * width * 4);
    const store = new RowStore(k, 64, undefined, spill);
    const rows = fill(store, [3, 1, 5]);
    const m = store.finish() as SignatureMatrix;
    expect([...m.words]).toEqual([...all(rows)]);
    expect(isShared(m.words)).toBe(true);
    expect(m.words.buffer.byteLength).toBe(1000 * width * 4);
    expect(received).toEqual([]);
  });

  it('past the limit every row goes to the sink, in order, the batch that crossed it included', () => {
    const { spill, received } = recordingSpill(6 * width * 4);
    const store = new RowStore(k, 64, undefined, spill);
    const rows = fill(store, [3, 2, 4, 2]);
    expect((store.finish() as SpilledSignatures).spilled).toBe(true);
    const joined = new Uint32Array(received.reduce((n, r) => n + r.length, 0));
    let at = 0;
    for (const r of received) {
      joined.set(r, at);
      at += r.length;
    }
    expect([...joined]).toEqual([...all(rows)]);
  });

  it('a limit past what the platform will allocate: held in chunks instead, the same matrix', () => {
    const { spill } = recordingSpill(2 ** 50);
    const store = new RowStore(k, 64, undefined, spill);
    const rows = fill(store, [2, 7]);
    expect([...(store.finish() as SignatureMatrix).words]).toEqual([...all(rows)]);
  });

  it('frees rows given to it once copied, and passes them on as given past the limit', () => {
    const { spill, received, gave } = recordingSpill(3 * width * 4);
    const store = new RowStore(k, 64, undefined, spill);
    const first = batch(0, 2);
    store.append(first, true);
    expect(first.buffer.byteLength).toBe(0); // copied into the held buffer, then freed
    const second = batch(2, 2);
    store.append(second, true); // past the limit: the sink takes it, given
    expect(gave).toEqual([second]);
    expect([...received.flatMap((r) => [...r])]).toEqual([...all(4)]);
    const kept = batch(4, 1);
    store.append(kept);
    expect(kept).toHaveLength(width); // not given: left as it is
  });
});
