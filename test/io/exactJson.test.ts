// JSON without losing digits: parseJsonExact against BigInt of the literal and against JSON.parse, jsonText
// against JSON.stringify and Node's base64; parseJsonLine's ids beyond 2^53.
import { isInteger, isSafeNumber, parse as losslessParse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/io/documents.js';
import { jsonText, parseJsonExact } from '../../src/io/exactJson.js';
import { parseJsonArray, parseJsonLine } from '../../src/io/jsonLines.js';
import { rng } from '../support/reference.js';

const OPTIONS = { textField: 'text', idField: 'id' };

function digits(next: () => number, length: number): string {
  let out = String(1 + Math.floor(next() * 9));
  while (out.length < length) out += String(Math.floor(next() * 10));
  return out;
}

describe('parseJsonExact', () => {
  it('reads every integer literal of 16 to 40 digits to the digit, and smaller ones as JSON.parse does', () => {
    const next = rng(19);
    for (let i = 0; i < 500; i++) {
      const literal = (next() < 0.5 ? '-' : '') + digits(next, 16 + Math.floor(next() * 25));
      const small = Math.floor(next() * 2 ** 53) * (next() < 0.5 ? -1 : 1);
      const parsed = parseJsonExact(
        `{"big": ${literal}, "list": [${literal}], "small": ${small}, "f": 0.1, "e": 1e300}`,
      ) as Record<string, unknown>;
      const exact = BigInt(literal);
      expect(parsed.big).toBe(Number.isSafeInteger(Number(exact)) ? Number(exact) : exact);
      expect((parsed.list as unknown[])[0]).toBe(parsed.big);
      expect(parsed.small).toBe(small);
      expect(parsed.f).toBe(0.1);
      expect(parsed.e).toBe(1e300);
    }
  });

  it('equals lossless-json on random lines: big integers in objects and arrays, digits and escapes in strings and keys', () => {
    const next = rng(23);
    const reference = (literal: string): number | bigint =>
      isInteger(literal) && !isSafeNumber(literal) ? BigInt(literal) : Number(literal);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    const scalar = (): string =>
      pick([
        () => (next() < 0.5 ? '-' : '') + digits(next, 1 + Math.floor(next() * 30)),
        () => `${digits(next, 17)}.${digits(next, 3)}`,
        () => `${digits(next, 17)}e${Math.floor(next() * 5)}`,
        () => JSON.stringify(`id ${digits(next, 20)} "quoted" \\ back\\slash ${digits(next, 18)}`),
        () => '"\\"12345678901234567890"',
        () => pick(['true', 'false', 'null', '0', '-0', '1.5']),
      ])();
    const value = (depth: number): string => {
      if (depth > 2 || next() < 0.5) return scalar();
      if (next() < 0.5) return `[${Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1)).join(', ')}]`;
      return `{${Array.from({ length: Math.floor(next() * 4) }, (_, i) => `${JSON.stringify(`k${i} ${digits(next, 17)}`)}: ${value(depth + 1)}`).join(',')}}`;
    };
    for (let i = 0; i < 2000; i++) {
      const text = `{"id": ${digits(next, 19)}, "text": "a", "v": ${value(0)}, "w": [${value(1)}]}`;
      expect(parseJsonExact(text)).toStrictEqual(losslessParse(text, undefined, reference));
    }
  });

  it('reads a line whose text escapes U+0000 (where a marker could be mistaken) by lossless-json', () => {
    expect(parseJsonExact('{"s": "\\u00001234", "n": 12345678901234567890}')).toStrictEqual({
      s: '\u00001234',
      n: 12345678901234567890n,
    });
  });

  it('equals JSON.parse on lines without big integers, and resolves duplicate keys as it does (the last), every digit kept', () => {
    for (const text of [
      '{"a":1,"b":[true,null,"x"],"c":{"d":-0.5}}',
      '{"hash":"12345678901234567890","n":3}',
      '{"pi":3.14159265358979323846}',
    ]) {
      expect(parseJsonExact(text)).toStrictEqual(JSON.parse(text));
    }
    expect(parseJsonExact('{"a":12345678901234567890,"a":12345678901234567891}')).toStrictEqual({
      a: 12345678901234567891n,
    });
  });

  it('fails as JSON.parse does on malformed text, with or without long digits', () => {
    for (const text of ['{"id": 12345678901234567890', '{"id": 1', 'not json 12345678901234567890']) {
      let message = '';
      try {
        JSON.parse(text);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(() => parseJsonExact(text)).toThrow(message);
    }
  });
});

describe('jsonText', () => {
  it('writes what JSON.stringify writes for JSON values', () => {
    const value = {
      s: 'quote " and \\ and \u2028 and \u0000 é 😀',
      n: [0, 1.5, -2, 1e300, 5e-324],
      b: [true, false],
      z: null,
      o: { nested: [{}] },
    };
    expect(jsonText(value)).toBe(JSON.stringify(value));
  });

  it('writes bigints to the digit, bytes as base64, DATE days, non-finite floats as strings, -0 with its sign, missing as null', () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7919) % 256);
    expect(jsonText({ big: -(2n ** 63n), u: 2n ** 64n - 1n })).toBe(
      '{"big":-9223372036854775808,"u":18446744073709551615}',
    );
    expect(jsonText(bytes)).toBe(`"${Buffer.from(bytes).toString('base64')}"`);
    expect(jsonText(new Uint8Array([0, 255]))).toBe('"AP8="');
    expect(jsonText([new Date(0), new Date(Date.UTC(-1, 0, 1)), new Date(Date.UTC(10000, 11, 31))])).toBe(
      '["1970-01-01","-000001-01-01","+010000-12-31"]',
    );
    expect(jsonText([NaN, Infinity, -Infinity, -0, undefined])).toBe('["NaN","Infinity","-Infinity",-0.0,null]');
    expect(JSON.parse(jsonText(-0))).toBe(-0);
    expect(jsonText({ a: undefined })).toBe('{"a":null}');
  });
});

describe('parseJsonLine and parseJsonArray: ids beyond 2^53', () => {
  it('keeps snowflake ids apart and exact, and integer fields as bigints', () => {
    const a = parseJsonLine(
      '{"id": 1460323737035677698, "text": "a", "n": 9007199254740993}',
      'f.jsonl',
      1,
      false,
      OPTIONS,
    );
    const b = parseJsonLine('{"id": 1460323737035677699, "text": "b"}', 'f.jsonl', 2, false, OPTIONS);
    expect(a).not.toBeInstanceOf(InputError);
    expect(b).not.toBeInstanceOf(InputError);
    if (a instanceof InputError || b instanceof InputError) return;
    expect([a.id, b.id]).toEqual(['1460323737035677698', '1460323737035677699']);
    expect(a.record?.n).toBe(9007199254740993n);
  });

  it('reads a JSON array of objects with big integers', () => {
    const docs = [
      ...parseJsonArray(
        '[{"id": 1460323737035677698, "text": "a"}, {"id": 1460323737035677699, "text": "b"}]',
        'a.json',
        false,
        { ...OPTIONS, skipInvalid: false },
      ),
    ];
    expect(docs.map((d) => d.id)).toEqual(['1460323737035677698', '1460323737035677699']);
  });
});
