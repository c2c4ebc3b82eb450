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

  it('names the file and line an id was first seen in, as files alternate', () => {
    const ids = new UniqueIds();
    const keyed = (id: string, path: string, line: number) => () => ids.add(id, path, line);
    for (const [id, path, line] of [
      ['x', 'a.jsonl', 1],
      ['y', 'b.jsonl', 1],
      ['v', 'b.jsonl', 2],
      ['z', 'a.jsonl', 2],
      ['w', 'c.jsonl', 0],
    ] as const)
      expect(keyed(id, path, line)).not.toThrow();
    expect(keyed('x', 'b.jsonl', 5)).toThrow(repeatedIdMessage('x', 'a.jsonl:1'));
    expect(keyed('y', 'a.jsonl', 9)).toThrow(repeatedIdMessage('y', 'b.jsonl:1'));
    expect(keyed('v', 'c.jsonl', 1)).toThrow(repeatedIdMessage('v', 'b.jsonl:2'));
    expect(keyed('z', 'a.jsonl', 3)).toThrow(repeatedIdMessage('z', 'a.jsonl:2'));
    expect(keyed('w', 'a.jsonl', 4)).toThrow(repeatedIdMessage('w', 'c.jsonl'));
  });
});
