/** A JSON line's text field replaced with every other byte kept (how substrings writes an edited line). */
import { describe, expect, it } from 'vitest';
import { replaceTopLevelField } from '../../src/io/jsonField.js';

describe('replaceTopLevelField', () => {
  it('replaces the top-level value only, the last of duplicate keys, keeping spacing, numbers and escapes', () => {
    const line = '{ "meta": {"text": "inner", "a": [1, {"text": 2}]}, "text" : "old \\"q\\" \\u00e9", "n": 1.0, "big": 12345678901234567890 }';
    expect(replaceTopLevelField(line, 'text', '"new"')).toBe('{ "meta": {"text": "inner", "a": [1, {"text": 2}]}, "text" : "new", "n": 1.0, "big": 12345678901234567890 }');
    expect(replaceTopLevelField('{"text":"a","text":"b"}', 'text', '"c"')).toBe('{"text":"a","text":"c"}');
    expect(replaceTopLevelField('{"t\\u0065xt":"a"}', 'text', '"c"')).toBe('{"t\\u0065xt":"c"}');
    expect(replaceTopLevelField('{"body":"a"}', 'text', '"c"')).toBeUndefined();
  });
});
