/**
 * Local files → documents, with the CLI's rules (src/io/jsonLines.ts, shared):
 * JSON Lines files by name, one object per line, blank lines ignored; any
 * other file is one plain-text document named by its file name. gzip is
 * recognized by its magic bytes and inflated with the browser's
 * DecompressionStream. Files are read whole: this is for what fits in a tab.
 */
import { InputError } from '../src/io/documents.js';
import { isJsonLinesName, parseJsonLine } from '../src/io/jsonLines.js';
import type { InMemoryDocument } from '../src/clusters/dedupDocuments.js';

/** A document read in the tab; JSONL input keeps its line, written back verbatim when the document is kept. */
export interface WebDocument extends InMemoryDocument {
  readonly rawLine?: string;
}

export interface ReadSettings {
  readonly textField: string;
  readonly idField: string;
}

export async function readFiles(files: readonly File[], settings: ReadSettings): Promise<WebDocument[]> {
  const documents: WebDocument[] = [];
  for (const file of files) {
    const text = await readText(file);
    if (!isJsonLinesName(file.name)) {
      documents.push({ id: file.name, text });
      continue;
    }
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      let line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
      if (i === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
      if (line.trim() === '') continue;
      const parsed = parseJsonLine(line, file.name, i + 1, files.length > 1, settings);
      if (parsed instanceof InputError) throw parsed;
      documents.push(parsed);
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
    throw new InputError(file.name, 0, `not a valid gzip stream (${(error as Error).message})`);
  }
}
