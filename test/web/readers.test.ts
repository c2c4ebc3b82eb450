/**
 * The tab's streaming readers (web/readers.ts), run in Node (File, Blob.stream,
 * DecompressionStream and TextDecoder are the web's): the same documents as the
 * CLI's readDocuments on the same bytes, whatever the chunking.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ } from '../../src/io/documents.js';
import { listInputFiles, readDocuments as readCliDocuments } from '../../src/io/readDocuments.js';
import { readDocuments, type WebDocument } from '../../web/readers.js';
import { tempDir } from '../support/cli.js';

const SETTINGS = { textField: 'text', idField: 'id', skipInvalid: false };

async function all(files: File[], settings = SETTINGS, hooks = {}): Promise<WebDocument[]> {
  const out: WebDocument[] = [];
  for await (const doc of readDocuments(files, settings, hooks)) out.push(doc);
  return out;
}

/** A File whose stream() delivers `size`-byte chunks, as a slow disk might. */
function chunkedFile(bytes: Uint8Array<ArrayBuffer>, name: string, size: number): File {
  const file = new File([bytes], name);
  Object.defineProperty(file, 'stream', {
    value: () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < bytes.length; at += size) controller.enqueue(bytes.slice(at, at + size));
          controller.close();
        },
      }),
  });
  return file;
}

describe('web readers', () => {
  const lines = ['\ufeff{"id": "a", "text": "héllo wörld 中文 😀"}', '', '{"id": 2, "text": "crlf line"}', '   ', '{"text": "no id"}'];
  const jsonl = new TextEncoder().encode(lines.join('\r\n') + '\n{"id": "last", "text": "no final newline"}');

  it.each([1, 3, 7, 64, 1 << 16])('reads JSONL as the CLI does, in %i-byte chunks (BOM, CRLF, blank lines, split UTF-8)', async (size) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'c.jsonl'), jsonl);
    const cli = [];
    for await (const doc of readCliDocuments(await listInputFiles([join(dir, 'c.jsonl')]), DEFAULT_READ)) cli.push({ id: doc.id, text: doc.text, rawLine: doc.rawLine });
    const web = await all([chunkedFile(jsonl, 'c.jsonl', size)]);
    expect(web.map((d) => ({ id: d.id, text: d.text, rawLine: d.rawLine }))).toEqual(cli);
    expect(web.map((d) => d.id)).toEqual(['a', '2', '5', 'last']);
  });

  it('gunzips by magic bytes, names plain-text files, counts bytes', async () => {
    let bytes = 0;
    const docs = await all([new File([gzipSync(jsonl)], 'c.jsonl.gz'), new File(['plain text body'], 'notes.txt')], SETTINGS, { onBytes: (b: number) => (bytes = b) });
    // Two inputs: a line without an id is named path:line, as the CLI names it.
    expect(docs.map((d) => d.id)).toEqual(['a', '2', 'c.jsonl.gz:5', 'last', 'notes.txt']);
    expect(bytes).toBe(gzipSync(jsonl).length + 'plain text body'.length);
  });

  it('fails on a bad line with file:line, or skips and counts it', async () => {
    const bad = new File(['{"id": "a", "text": "x"}\n{"id": "b", "text": 3}\n'], 'bad.jsonl');
    await expect(all([bad])).rejects.toThrow('bad.jsonl:2: text field "text" is a number, not a string');
    const skipped: string[] = [];
    const docs = await all([bad], { ...SETTINGS, skipInvalid: true }, { onInvalid: (m: string) => skipped.push(m) });
    expect(docs.map((d) => d.id)).toEqual(['a']);
    expect(skipped).toEqual(['bad.jsonl:2: text field "text" is a number, not a string']);
  });

  it('rejects a truncated gzip stream, and skips empty and binary files', async () => {
    const gz = gzipSync(jsonl);
    await expect(all([new File([gz.subarray(0, gz.length - 12)], 'cut.jsonl.gz')])).rejects.toThrow(/^cut\.jsonl\.gz: not a valid gzip stream \(/);
    const skipped: string[] = [];
    const docs = await all([new File([], 'empty.jsonl'), new File([new Uint8Array([1, 0, 2, 0])], 'x.txt'), new File(['ok'], 'ok.txt')], SETTINGS, {
      onSkippedFile: (m: string) => skipped.push(m),
    });
    expect(docs.map((d) => d.id)).toEqual(['ok.txt']);
    expect(skipped).toEqual(['empty.jsonl: empty file, skipped', 'x.txt: looks binary (NUL bytes or mostly invalid UTF-8), skipped']);
  });
});
