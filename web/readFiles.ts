/**
 * Local files → documents, with the CLI's rules (src/io/readDocuments.ts):
 * `*.jsonl`, `*.ndjson`, `*.json` (optionally `.gz`) are JSON Lines, one object
 * per line with the text in `textField` and the id in `idField`, blank lines
 * ignored, documents without an id named by line number (`file:line` with
 * several files); any other file is one plain-text document named by its file
 * name. gzip is recognized by its magic bytes and inflated with the browser's
 * DecompressionStream. Files are read whole: this is for what fits in a tab.
 */
import type { WebDocument } from './dedup.js';

const JSONL_NAME = /\.(jsonl|ndjson|json)(\.gz)?$/i;

export interface ReadSettings {
  readonly textField: string;
  readonly idField: string;
}

/** A malformed input: the message names the file and line. */
export class FileInputError extends Error {
  override readonly name = 'FileInputError';
}

export async function readFiles(files: readonly File[], settings: ReadSettings): Promise<WebDocument[]> {
  const documents: WebDocument[] = [];
  for (const file of files) {
    const text = await readText(file);
    if (!JSONL_NAME.test(file.name)) {
      documents.push({ id: file.name, text });
      continue;
    }
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
      if (i === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      if (line.trim() === '') continue;
      documents.push(parseRecord(line, file.name, i + 1, files.length > 1, settings));
    }
  }
  return documents;
}

async function readText(file: File): Promise<string> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  const gzip = head.length === 2 && head[0] === 0x1f && head[1] === 0x8b;
  const stream = gzip ? file.stream().pipeThrough(new DecompressionStream('gzip')) : file.stream();
  try {
    return await new Response(stream).text();
  } catch (error) {
    throw new FileInputError(`${file.name}: not a valid gzip stream (${(error as Error).message})`);
  }
}

function parseRecord(line: string, name: string, lineNumber: number, qualifyIds: boolean, settings: ReadSettings): WebDocument {
  const fail = (reason: string): never => {
    throw new FileInputError(`${name}:${lineNumber}: ${reason}`);
  };
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch (error) {
    return fail(`malformed JSON (${(error as Error).message})`);
  }
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return fail('expected a JSON object');
  const fields = record as Record<string, unknown>;
  const text = fields[settings.textField];
  if (text === undefined) return fail(`missing text field "${settings.textField}"`);
  if (typeof text !== 'string') return fail(`text field "${settings.textField}" is not a string`);
  const rawId = fields[settings.idField];
  let id: string;
  if (rawId === undefined || rawId === null) id = qualifyIds ? `${name}:${lineNumber}` : String(lineNumber);
  else if (typeof rawId === 'string' || typeof rawId === 'number') id = String(rawId);
  else return fail(`id field "${settings.idField}" is not a string or number`);
  return { id, text, rawLine: line, record: fields };
}
