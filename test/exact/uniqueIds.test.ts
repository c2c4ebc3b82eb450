import { describe, expect, it } from 'vitest';
import { repeatedIdMessage, requireUniqueIdsInMemory, UniqueIds } from '../../src/exact/uniqueIds.js';

describe('UniqueIds', () => {
  it('remembers where each of many ids was first seen (past its first table) and returns it for a repeat', () => {
    const ids = new UniqueIds();
    const n = 5000;
    for (let i = 0; i < n; i++) expect(ids.placeOf(`id-${i}`, 2 ** 40 + i)).toBeUndefined();
    for (let i = n - 1; i >= 0; i -= 7) expect(ids.placeOf(`id-${i}`, -1)).toBe(2 ** 40 + i);
    expect(ids.placeOf('', 3)).toBeUndefined(); // the empty id is an id like any other
    expect(ids.placeOf('', 4)).toBe(3);
  });

  it('in memory: names both indexes', () => {
    expect(() => requireUniqueIdsInMemory([{ id: 'a' }, { id: 'b' }, { id: 'a' }])).toThrow(
      'documents[2]: id "a" repeats the id of documents[0]; ids must be unique',
    );
    expect(() => requireUniqueIdsInMemory([{ id: 'a' }, { id: 'b' }])).not.toThrow();
    expect(repeatedIdMessage('x"y', 'f.jsonl:3')).toBe('id "x\\"y" repeats the id of f.jsonl:3; ids must be unique');
  });
});
