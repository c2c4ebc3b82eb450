/** The request bodies `serve` accepts, and the message each mistake gets. */
import { describe, expect, it } from 'vitest';
import { parseAddRequest, parseQueryRequest, parseRemoveRequest, RequestError } from '../../src/server/requests.js';

function message(parse: (body: unknown) => unknown, body: unknown): string {
  try {
    parse(body);
  } catch (error) {
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).status).toBe(400);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(body)}`);
}

describe('query bodies', () => {
  it('takes texts, or documents (their ids kept for the results), and top', () => {
    expect(parseQueryRequest({ texts: ['a', ''] })).toEqual({ texts: ['a', ''], top: undefined });
    expect(parseQueryRequest({ documents: [{ id: 'x', text: 'a b' }], top: 3 })).toEqual({
      texts: ['a b'],
      ids: ['x'],
      top: 3,
    });
    expect(parseQueryRequest({ texts: [] })).toEqual({ texts: [], top: undefined });
  });

  it('names the field and the position of what is wrong', () => {
    expect(message(parseQueryRequest, { texts: ['a', 'b', 3] })).toBe('texts[2] must be a string');
    expect(message(parseQueryRequest, { texts: 'a' })).toBe('texts must be an array');
    expect(message(parseQueryRequest, {})).toMatch(/needs "texts".*or "documents"/);
    expect(message(parseQueryRequest, [])).toMatch(/must be a JSON object/);
    expect(message(parseQueryRequest, null)).toMatch(/must be a JSON object/);
    expect(message(parseQueryRequest, 'texts')).toMatch(/must be a JSON object/);
    expect(message(parseQueryRequest, { texts: [], documents: [] })).toBe('give "texts" or "documents", not both');
    expect(message(parseQueryRequest, { text: ['a'] })).toMatch(/^unknown field "text"/);
    expect(message(parseQueryRequest, { documents: [{ id: 'a' }] })).toBe('documents[0].text is missing');
    expect(message(parseQueryRequest, { documents: [{ id: 'a', text: 'x' }, { text: 'y' }] })).toBe(
      'documents[1].id is missing',
    );
    expect(message(parseQueryRequest, { documents: [{ id: 7, text: 'x' }] })).toBe(
      'documents[0].id must be a non-empty string',
    );
    expect(message(parseQueryRequest, { documents: ['x'] })).toMatch(/^documents\[0\] must be an object/);
    for (const top of [0, -1, 1.5, '3', 10_001, null])
      expect(message(parseQueryRequest, { texts: ['a'], top })).toBe(
        `top must be an integer from 1 to 10000, got ${typeof top === 'string' ? `"${top}"` : top}`,
      );
  });

  it('takes containment and rerank, checked by the options table', () => {
    expect(parseQueryRequest({ texts: ['a'], containment: 0.8 })).toEqual({ texts: ['a'], containment: 0.8 });
    expect(parseQueryRequest({ texts: ['a'], top: 3, rerank: 'estimate' })).toEqual({
      texts: ['a'],
      top: 3,
      rerank: 'estimate',
    });
    for (const containment of [0, -0.5, 1.01, '0.8', null])
      expect(message(parseQueryRequest, { texts: ['a'], containment })).toMatch(
        /^containment must be a number above 0 and at most 1, got/,
      );
    expect(message(parseQueryRequest, { texts: ['a'], top: 2, rerank: 'best' })).toMatch(
      /^rerank must be exact or estimate, got "best"/,
    );
  });
});

describe('add bodies', () => {
  it('takes documents and all', () => {
    expect(parseAddRequest({ documents: [{ id: 'a', text: 'x' }] })).toEqual({
      documents: [{ id: 'a', text: 'x' }],
      all: false,
    });
    expect(parseAddRequest({ documents: [], all: true })).toEqual({ documents: [], all: true });
  });

  it('refuses repeated ids, wrong types and missing fields by name', () => {
    expect(
      message(parseAddRequest, {
        documents: [
          { id: 'a', text: 'x' },
          { id: 'b', text: 'y' },
          { id: 'a', text: 'z' },
        ],
      }),
    ).toBe('documents[2].id "a" repeats documents[0].id: ids are unique');
    expect(message(parseAddRequest, { documents: [{ id: 'a', text: 1 }] })).toBe('documents[0].text must be a string');
    expect(message(parseAddRequest, { documents: [{ id: 'a', text: 'x', meta: 1 }] })).toMatch(
      /^unknown field "meta" in documents\[0\]/,
    );
    expect(message(parseAddRequest, { texts: ['x'] })).toMatch(/^unknown field "texts"/);
    expect(message(parseAddRequest, {})).toMatch(/needs "documents"/);
    expect(message(parseAddRequest, { documents: [], all: 'yes' })).toBe('all must be true or false');
  });
});

describe('remove bodies', () => {
  it('takes ids, non-empty strings', () => {
    expect(parseRemoveRequest({ ids: ['a', 'b'] })).toEqual({ ids: ['a', 'b'] });
    expect(message(parseRemoveRequest, { ids: ['a', 2] })).toBe('ids[1] must be a string');
    expect(message(parseRemoveRequest, { ids: [''] })).toBe('ids[0] must not be empty');
    expect(message(parseRemoveRequest, { id: 'a' })).toMatch(/^unknown field "id"/);
  });
});
