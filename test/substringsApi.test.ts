/** The library's substrings(): the CLI's semantics on documents in memory, in this thread or on workers. */
import { describe, expect, it } from 'vitest';
import { substrings } from '../src/index.js';

const P = 'A paragraph that three documents share, word for word, and long enough to be cut: ünïcödé ☃.';

describe('substrings()', () => {
  it('cuts later occurrences, marks emptied documents dropped, names spans by id; workers agree', async () => {
    const docs = [
      { id: 'a', text: `one ${P} end` },
      { id: 'b', text: `two ${P}` },
      { id: 'c', text: P },
      { id: 'd', text: 'alone' },
    ];
    const here = await substrings(docs, { minLength: 40, threads: 1 });
    expect(here.documents.map((d) => [d.id, d.text, d.dropped])).toEqual([
      ['a', `one ${P} end`, false],
      ['b', 'two', false],
      ['c', '', true],
      ['d', 'alone', false],
    ]);
    expect(here.spans).toEqual([
      { id: 'b', start: 3, end: 4 + Buffer.byteLength(P), firstId: 'a', firstStart: 3 },
      { id: 'c', start: 0, end: Buffer.byteLength(P), firstId: 'a', firstStart: 4 },
    ]);
    const workers = await substrings(docs, { minLength: 40, threads: 2 });
    expect(workers.spans).toEqual(here.spans);
    const all = await substrings(
      docs.map((d) => d.text),
      { minLength: 40, cut: 'all', threads: 1 },
    );
    expect(all.documents[0].text).toBe('one end');
    expect(all.spans[0].id).toBe('0'); // plain strings are named by their index
  });

  it("refuses a bad or unknown option with the CLI's message", async () => {
    await expect(substrings(['x'], { minLength: 0 })).rejects.toThrow(
      'minLength must be an integer from 1 to 1048576, got 0',
    );
    await expect(substrings(['x'], { cut: 'first' as never })).rejects.toThrow('cut must be later or all, got "first"');
    await expect(substrings(['x'], { minLenght: 5 } as never)).rejects.toThrow(/substrings has no option "minLenght"/);
  });

  it('refuses a repeated id, as the CLI does (issue 40, item 3): the spans name documents by id', async () => {
    const docs = [
      { id: 'a', text: `one ${P}` },
      { id: 'a', text: `two ${P}` },
    ];
    await expect(substrings(docs, { minLength: 40, threads: 1 })).rejects.toThrow(
      /documents\[1\]: id "a" repeats the id of documents\[0\]/,
    );
    await expect(substrings(docs, { minTokens: 5 })).rejects.toThrow(/id "a" repeats/);
  });

  it('drops a document left with no token, not only an empty one (issue 40, item 4)', async () => {
    const docs = [P, `  ${P}\n`, `\t${P} `, `kept ${P}`];
    const bytes = await substrings(docs, { minLength: 40, threads: 1 });
    expect(bytes.documents.map((d) => [d.text.trim(), d.dropped])).toEqual([
      [P, false],
      ['', true],
      ['', true],
      ['kept', false],
    ]);
    const tokens = await substrings(docs, { minTokens: 3, cut: 'all' });
    expect(tokens.documents.map((d) => d.dropped)).toEqual([true, true, true, false]);
  });
});
