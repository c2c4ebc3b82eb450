/**
 * The kept documents (`dedup -o`), by the output's name:
 *
 * - JSON Lines (`.jsonl`, optionally `.gz` / `.zst`): each kept JSONL line
 *   verbatim; a Parquet row as a JSON object of its columns; a plain-text
 *   document as `{"id","text"}`.
 * - Parquet (`.parquet`): when every input is Parquet with one schema, that
 *   schema, rows as read. Otherwise columns `id` and `text`, then every other
 *   field whose values are all scalars (strings, numbers, booleans, nulls), in
 *   first-seen order, typed STRING, INT64, DOUBLE or BOOLEAN from the values (a
 *   field mixing strings and other scalars becomes STRING). As the columns are
 *   known only after the last document, kept records go to a temporary JSON
 *   Lines file first, then into Parquet row groups.
 */
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { SchemaElement } from 'hyparquet';
import { documentAsJson, type InputDocument } from '../io/documents.js';
import type { InputFile } from '../io/readDocuments.js';
import { localParquetFile } from '../io/localParquetFile.js';
import { openParquet } from '../io/parquetDocuments.js';
import { isParquetOutput, ParquetFile, type ParquetCompression } from './parquetFile.js';
import { flatSchema, KEPT_ROW_GROUP_ROWS as ROW_GROUP_ROWS, KEPT_ROW_GROUP_TEXT as ROW_GROUP_TEXT, KeptSchemaInference } from './parquetSchema.js';
import { BufferedFile } from './tableWriter.js';

export interface KeptDocuments {
  write(document: InputDocument): Promise<void>;
  /** A kept JSON line's original bytes, its line end included; only where `copiesLines`. */
  writeLine?(bytes: Uint8Array): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}


export async function openKeptDocuments(path: string, inputs: readonly InputFile[], compression?: ParquetCompression): Promise<KeptDocuments> {
  if (!isParquetOutput(path)) return new JsonLinesKept(await BufferedFile.create(path));
  const schema = await commonParquetSchema(inputs);
  if (schema !== undefined) return new SameSchemaKept(await ParquetFile.create(path, schema, { compression }), schema);
  return new InferredSchemaKept(path, await BufferedFile.create(stagingPath(path)), compression);
}

/** Scalars as JSON: bigint as a number when exact, else as a string. */
class JsonLinesKept implements KeptDocuments {
  constructor(private readonly file: BufferedFile) {}

  async writeLine(bytes: Uint8Array): Promise<void> {
    await this.file.writeBytes(bytes);
    if (bytes[bytes.length - 1] !== 0x0a) await this.file.write('\n'); // the file's last line had no end
  }
  write(document: InputDocument): Promise<void> {
    return this.file.write(documentAsJson(document) + '\n');
  }
  commit(): Promise<void> {
    return this.file.commit();
  }
  abort(): Promise<void> {
    return this.file.abort();
  }
}

/** The schema all inputs share when they are all Parquet, else undefined. */
async function commonParquetSchema(inputs: readonly InputFile[]): Promise<SchemaElement[] | undefined> {
  if (inputs.length === 0 || inputs.some((f) => f.format !== 'parquet')) return undefined;
  let first: { schema: SchemaElement[]; key: string } | undefined;
  for (const input of inputs) {
    const parquet = await localParquetFile(input.path, () => undefined);
    try {
      const { metadata } = await openParquet(parquet.file, input.path);
      const key = JSON.stringify(metadata.schema.map(({ field_id: _, ...element }) => element));
      if (first === undefined) first = { schema: metadata.schema, key };
      else if (key !== first.key) return undefined;
    } finally {
      await parquet.close();
    }
  }
  return first?.schema;
}

/** Buffers rows by column and writes a row group when it is full. */
class RowGroupBuffer {
  private data: unknown[][];
  private textLength = 0;

  constructor(
    private readonly file: ParquetFile,
    private readonly names: readonly string[],
  ) {
    this.data = names.map(() => []);
  }

  async add(values: readonly unknown[], textLength: number): Promise<void> {
    values.forEach((value, i) => this.data[i].push(value));
    this.textLength += textLength;
    if (this.data[0].length >= ROW_GROUP_ROWS || this.textLength >= ROW_GROUP_TEXT) await this.flush();
  }

  async flush(): Promise<void> {
    const data = this.data;
    this.data = this.names.map(() => []);
    this.textLength = 0;
    await this.file.writeRowGroup(this.names.map((name, i) => ({ name, data: data[i] })));
  }
}

class SameSchemaKept implements KeptDocuments {
  private readonly rows: RowGroupBuffer;
  private readonly names: string[];

  constructor(
    private readonly file: ParquetFile,
    schema: SchemaElement[],
  ) {
    this.names = topLevelNames(schema);
    this.rows = new RowGroupBuffer(file, this.names);
  }

  write(document: InputDocument): Promise<void> {
    const record = document.record ?? {};
    return this.rows.add(this.names.map((name) => record[name] ?? null), document.text.length);
  }

  async commit(): Promise<void> {
    await this.rows.flush();
    await this.file.commit();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}

/** Names of the root's children in a flattened Parquet schema. */
function topLevelNames(schema: SchemaElement[]): string[] {
  const names: string[] = [];
  let i = 1;
  const skip = (): void => {
    const element = schema[i++];
    for (let c = 0; c < (element.num_children ?? 0); c++) skip();
  };
  while (i < schema.length) {
    names.push(schema[i].name);
    skip();
  }
  return names;
}

/** The staged rows: a name that says it is not a finished output (it is deleted once the Parquet is written). */
function stagingPath(path: string): string {
  return `${path}.rows.partial`;
}

class InferredSchemaKept implements KeptDocuments {
  private readonly inference = new KeptSchemaInference();

  constructor(
    private readonly path: string,
    private readonly staging: BufferedFile,
    private readonly compression: ParquetCompression | undefined,
  ) {}

  write(document: InputDocument): Promise<void> {
    return this.staging.write(this.inference.stage(document) + '\n');
  }

  async commit(): Promise<void> {
    await this.staging.commit();
    const staged = stagingPath(this.path);
    try {
      const columns = this.inference.columns();
      const file = await ParquetFile.create(this.path, flatSchema(columns), { compression: this.compression });
      try {
        const rows = new RowGroupBuffer(file, columns.map((c) => c.name));
        for await (const line of createInterface({ input: createReadStream(staged, 'utf8'), crlfDelay: Infinity })) {
          const { values, textLength } = KeptSchemaInference.values(line, columns);
          await rows.add(values, textLength);
        }
        await rows.flush();
        await file.commit();
      } catch (error) {
        await file.abort();
        throw error;
      }
    } finally {
      await unlink(staged).catch(() => undefined);
    }
  }

  abort(): Promise<void> {
    return this.staging.abort();
  }
}
