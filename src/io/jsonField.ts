/**
 * One top-level field of a JSON object's text replaced, every other byte of
 * the line kept as it is (spacing, key order, number spellings, escapes):
 * how an edited document's line is written when only its text changed. With
 * a key given twice, the last is replaced, as JSON.parse reads the last.
 */
import type { InputDocument } from './documents.js';

/**
 * `line` (one JSON object) with the value of top-level `field` replaced by `valueJson`; undefined if it has no such
 * field.
 */
export function replaceTopLevelField(line: string, field: string, valueJson: string): string | undefined {
  const found = topLevelFieldRange(line, field, (key) => key);
  return found === undefined ? undefined : line.slice(0, found[0]) + valueJson + line.slice(found[1]);
}

/**
 * `line`'s bytes with the value of top-level `field` replaced by `valueJson` (in UTF-8), every other byte as it was
 * (invalid UTF-8 included); undefined if it has no such field.
 */
export function replaceTopLevelFieldBytes(line: Uint8Array, field: string, valueJson: string): Uint8Array | undefined {
  // One character per byte: JSON's structure is ASCII, and no byte of a multi-byte UTF-8 sequence is, so the scan
  // finds the same places and its offsets are byte offsets. Keys are read back as UTF-8 to be compared.
  const binary = binaryString(line);
  const found = topLevelFieldRange(binary, field, (key) => UTF8.decode(latin1Bytes(key)));
  if (found === undefined) return undefined;
  const value = new TextEncoder().encode(valueJson);
  const out = new Uint8Array(found[0] + value.length + line.length - found[1]);
  out.set(line.subarray(0, found[0]));
  out.set(value, found[0]);
  out.set(line.subarray(found[1]), found[0] + value.length);
  return out;
}

const UTF8 = new TextDecoder();

/** Each byte as the character of that code (0–255). */
function binaryString(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192)
    text += String.fromCharCode(...bytes.subarray(i, Math.min(i + 8192, bytes.length)));
  return text;
}

function latin1Bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * [start, end) of the value of top-level `field` in one JSON object's text (the last, when it is given twice), or
 * undefined; `decodeKey` turns a key's literal as the text holds it into JSON text.
 */
function topLevelFieldRange(
  line: string,
  field: string,
  decodeKey: (literal: string) => string,
): [number, number] | undefined {
  let found: [number, number] | undefined;
  let i = skipSpace(line, 0);
  if (line[i] !== '{') return undefined;
  i = skipSpace(line, i + 1);
  while (i < line.length && line[i] !== '}') {
    const keyEnd = skipString(line, i);
    const key = JSON.parse(decodeKey(line.slice(i, keyEnd))) as string;
    i = skipSpace(line, skipSpace(line, keyEnd) + 1); // past the colon
    const valueEnd = skipValue(line, i);
    if (key === field) found = [i, valueEnd];
    i = skipSpace(line, valueEnd);
    if (line[i] === ',') i = skipSpace(line, i + 1);
  }
  return found;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/** The index past the string literal opening at i. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  return text.length;
}

/** The index past the value starting at i (a string, an object or array with what it holds, or a literal). */
function skipValue(text: string, i: number): number {
  if (text[i] === '"') return skipString(text, i);
  if (text[i] !== '{' && text[i] !== '[') {
    let j = i;
    while (j < text.length && !',}] \t\r\n'.includes(text[j])) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text[j];
    if (c === '"') j = skipString(text, j) - 1;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return j + 1;
  }
  return text.length;
}

/**
 * The document with another text (`substrings -o`, and the tab's download of it): a JSON line keeps every other byte
 * (of its bytes as read too, where the reader kept them), a row every other column.
 */
export function withText<D extends Pick<InputDocument, 'text' | 'record' | 'rawLine' | 'lineBytes'>>(
  document: D,
  text: string,
  textField: string,
): D {
  const record = document.record === undefined ? undefined : { ...document.record, [textField]: text };
  const valueJson = JSON.stringify(text);
  const rawLine =
    document.rawLine === undefined ? undefined : replaceTopLevelField(document.rawLine, textField, valueJson);
  const lineBytes =
    document.lineBytes === undefined ? undefined : replaceTopLevelFieldBytes(document.lineBytes, textField, valueJson);
  return { ...document, text, record, rawLine, lineBytes };
}
