// The page's wording, in Node: CLI flags in the library's messages become the
// page's settings; counts take the singular for one and thousands separators.
import { describe, expect, it } from 'vitest';
import { parseJsonLine } from '../../src/io/jsonLines.js';
import { plural } from '../../web/dom.js';
import { fieldMessage, forThisPage } from '../../web/messages.js';
import { describeAmount } from '../../web/progressView.js';

describe('forThisPage', () => {
  it('names the setting instead of the CLI flag, and leaves messages without flags alone', () => {
    const parquet = 'c.parquet: no text column "body" (columns: id, text); choose one with --text-field';
    expect(forThisPage(parquet)).toBe(
      'c.parquet: no text column "body" (columns: id, text); choose one with the setting “Text field”',
    );
    expect(forThisPage('x: use --id-field, or --skip-invalid; --keep field:NAME')).toBe(
      'x: use the setting “Id field”, or the setting “Malformed lines: skip and count them”; the setting “Keep in each cluster”',
    );
    expect(forThisPage('passed over SwiftShader: …; --backend webgpu uses it anyway')).toBe(
      'passed over SwiftShader: …; the signing backend “WebGPU, even a software adapter” uses it anyway',
    );
    const plain = (parseJsonLine('{"text": 1}', 'a-k.jsonl', 3, false, { textField: 'text', idField: 'id' }) as Error)
      .message;
    expect(forThisPage(plain)).toBe(plain);
    expect(forThisPage('my--text-field.jsonl:1: expected a JSON object')).toBe(
      'my--text-field.jsonl:1: expected a JSON object',
    );
  });
});

describe('counts on the page', () => {
  it('singular for one, thousands separators everywhere', () => {
    expect(plural(1, 'pair')).toBe('1 pair');
    expect(plural(0, 'pair')).toBe('0 pairs');
    expect(plural(86246, 'comparison')).toBe('86,246 comparisons');
    expect(describeAmount({ stage: 'verification', done: 0, total: 1, unit: 'pairs' })).toBe('0 of 1 pair');
    expect(describeAmount({ stage: 'verification', done: 86246, total: 100000, unit: 'pairs' })).toBe(
      '86,246 of 100,000 pairs',
    );
    expect(describeAmount({ stage: 'banding', done: 3, total: 16, unit: 'bands' })).toBe('3 of 16 bands');
    expect(describeAmount({ stage: 'signing', done: 3 * 1024 * 1024, total: 50 * 1024 * 1024, unit: 'bytes' })).toBe(
      '3.0 MiB of 50.0 MiB',
    );
  });
});

describe('fieldMessage (issue 40, item 17)', () => {
  const label = 'Shortest repeated span (bytes)';
  it("names the field by its label, not the option's code name", () => {
    expect(fieldMessage('minLength must be an integer from 1 to 1048576, got 0', label, '0')).toBe(
      '“Shortest repeated span (bytes)” must be an integer from 1 to 1048576, got 0.',
    );
    expect(fieldMessage('textField must be a field or column name, got ""', 'Text field', '')).toBe(
      '“Text field” is empty: give a field or column name.',
    );
  });
  it('says plainly that a field is empty or holds no number, never got "" or got NaN', () => {
    expect(fieldMessage('minLength must be an integer from 1 to 1048576, got ""', label, '')).toBe(
      '“Shortest repeated span (bytes)” is empty: give an integer from 1 to 1048576.',
    );
    // A number field whose entry the browser cannot read reports '' with validity.badInput.
    expect(fieldMessage('minLength must be an integer from 1 to 1048576, got ""', label, '', true)).toBe(
      '“Shortest repeated span (bytes)” is not a number: give an integer from 1 to 1048576.',
    );
    expect(fieldMessage('top must be an integer from 1 to 10000, got "ten"', 'K', 'ten')).toBe(
      '“K” is not a number: give an integer from 1 to 10000.',
    );
    expect(fieldMessage('containment must be a number above 0 and at most 1, got NaN', 'C', 'x')).not.toMatch(/NaN/);
  });
  it('leaves other messages to forThisPage', () => {
    expect(fieldMessage('choose one with --text-field', 'Text field', 'body')).toBe(
      'choose one with the setting “Text field”',
    );
  });
});
