import { describe, expect, it } from 'vitest';
import { RecentGroupRows } from '../../../src/pipeline/sign/recentGroupRows.js';
import type { SignedUnit } from '../../../src/firstPass/signedUnits.js';
import { EMPTY_SLOT_WORD } from '../../../src/signatures/backend.js';

const WIDTH = 4;

/** Orders a unit of documents named by their text's key (0: empty) as firstPass does, signing the selected ones. */
function orderedUnit(pass: RecentGroupRows, keys: readonly number[]): { unit: SignedUnit; signedKeys: number[] } {
  const groups = new Int32Array(keys.length);
  const selected: number[] = [];
  keys.forEach((key, d) => {
    const { group, isNew } = pass.addKeyed(Uint32Array.of(key, 7, 7, 7), 0, key === 0);
    groups[d] = group;
    if (isNew) selected.push(d);
  });
  // A document's signature: its key in every word, so a row says whose it is.
  const signatures = new Uint32Array(selected.length * WIDTH);
  selected.forEach((d, s) => signatures.fill(keys[d], s * WIDTH, (s + 1) * WIDTH));
  const documents = { count: keys.length } as SignedUnit['documents'];
  const unit = { documents, groups, selected: Uint32Array.from(selected), signatures } as unknown as SignedUnit;
  return { unit, signedKeys: selected.map((d) => keys[d]) };
}

function firstWords(rows: Uint32Array): number[] {
  return Array.from({ length: rows.length / WIDTH }, (_, d) => rows[d * WIDTH]);
}

describe('RecentGroupRows', () => {
  it('signs each text once while its row is held, and gives every duplicate that row (empty: all ones)', () => {
    const pass = new RecentGroupRows(WIDTH, 8);
    const first = orderedUnit(pass, [1, 2, 1, 0, 3]);
    expect(first.signedKeys).toEqual([1, 2, 3]);
    expect(firstWords(pass.rowsOf(first.unit))).toEqual([1, 2, 1, EMPTY_SLOT_WORD, 3]);
    const second = orderedUnit(pass, [3, 4, 2, 2]);
    expect(second.signedKeys).toEqual([4]);
    expect(firstWords(pass.rowsOf(second.unit))).toEqual([3, 4, 2, 2]);
    expect(pass.signedAgain).toBe(0);
  });

  it('signs a duplicate again once its group is more than `capacity` groups old, the ring not overwritten', () => {
    const pass = new RecentGroupRows(WIDTH, 2);
    const unit = orderedUnit(pass, [1, 2, 3, 1, 3, 2, 4, 3]);
    // 1 is 3 groups old at its repeat (signed again), 3 one group old (held); 2 is 2 old (held); 3 after 4: held.
    expect(unit.signedKeys).toEqual([1, 2, 3, 1, 4]);
    expect(firstWords(pass.rowsOf(unit.unit))).toEqual([1, 2, 3, 1, 3, 2, 4, 3]);
    expect(pass.signedAgain).toBe(1);
  });

  it('gives each unit all its rows, word for word, in scratch kept from unit to unit', () => {
    const pass = new RecentGroupRows(WIDTH, 8);
    const rowsOf = (keys: readonly number[]): number[] => Array.from(pass.rowsOf(orderedUnit(pass, keys).unit));
    const row = (word: number): number[] => Array(WIDTH).fill(word);
    expect(rowsOf([5, 6, 5, 6, 5, 6])).toEqual([5, 6, 5, 6, 5, 6].flatMap(row));
    // Fewer rows than the scratch holds, an empty one where a signed row lay: nothing of the unit before shows.
    expect(rowsOf([0, 6, 9])).toEqual([...row(EMPTY_SLOT_WORD), ...row(6), ...row(9)]);
  });
});
