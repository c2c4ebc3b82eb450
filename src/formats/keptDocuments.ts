/**
 * The kept documents (`dedup -o`), by the output's name:
 *
 * - JSON Lines (`.jsonl`, optionally `.gz` / `.zst`): each kept JSONL line
 *   verbatim; a Parquet row as a JSON object of its columns (docs/inputs-outputs.md's
 *   mapping: io/exactJson.ts); a plain-text
 *   document as `{"id","text"}`.
 * - Parquet (`.parquet`): when every input is Parquet with one schema, that
 *   schema (and the inputs' `ARROW:schema`, when they share it), every value
 *   exactly as read (keptParquet.ts); a column that cannot be written so is
 *   refused before any work (checkKeptOutput). Otherwise columns `id` and
 *   `text`, then every other field whose values are all scalars (strings,
 *   numbers, booleans, nulls), in first-seen order, typed STRING, INT64,
 *   DECIMAL(38,0), DOUBLE or BOOLEAN from the values (a field mixing strings
 *   and other scalars becomes STRING). As the columns are
 *   known only after the last document, kept records go to a temporary JSON
 *   Lines file first, then into Parquet row groups.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { SchemaElement } from 'hyparquet';
import { documentAsJson, InputError, type InputDocument } from '../io/documents.js';
import type { InputFile } from '../io/readDocuments.js';
import { localParquetFile } from '../io/localParquetFile.js';
import { openParquet } from '../io/parquetDocuments.js';
import { keptParquetPlan, unwritableColumn, type KeptParquetColumn } from './parquet/keptParquet.js';
import { isParquetOutput, ParquetFile, type ParquetCompression } from './parquet/parquetFile.js';
import {
  flatSchema,
  KEPT_ROW_GROUP_ROWS as ROW_GROUP_ROWS,
  KEPT_ROW_GROUP_TEXT as ROW_GROUP_TEXT,
  KeptSchemaInference,
} from './parquet/parquetSchema.js';
import { BufferedFile } from './files/tableWriter.js';
import { removeTemporary, reserveTemporary } from './files/temporaries.js';

export interface KeptDocuments {
  write(document: InputDocument): Promise<void>;
  /**
   * A kept JSON line's original bytes, its line end included; only where `copiesLines`. Undefined, or a promise to
   * await before the next write (files/tableWriter.ts).
   */
  writeLine?(bytes: Uint8Array): Promise<void> | undefined;
  /**
   * Where kept lines may be written at their offsets instead, by other threads (the output's temporary file, empty):
   * only for a plain JSON Lines file, before anything is written to it.
   */
  positionalPath?(): string | undefined;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * A document written as it came in: its line's bytes where the reader kept them (ReadOptions.lineBytes) and the output
 * copies lines, invalid UTF-8 and CRLF included; else from its text and fields.
 */
export async function writeAsRead(out: KeptDocuments, document: InputDocument): Promise<void> {
  await (document.lineBytes !== undefined && out.writeLine !== undefined
    ? out.writeLine(document.lineBytes)
    : out.write(document));
}

export async function openKeptDocuments(
  path: string,
  inputs: readonly InputFile[],
  compression?: ParquetCompression,
): Promise<KeptDocuments> {
  if (!isParquetOutput(path)) return new JsonLinesKept(await BufferedFile.create(path));
  const common = await commonParquetSchema(inputs);
  if (common === undefined) {
    const staged = reserveTemporary(path, 'rows');
    return new InferredSchemaKept(path, staged, await BufferedFile.create(staged), compression);
  }
  refuseUnwritable(path, inputs, common.schema);
  const plan = keptParquetPlan(common.schema);
  const metadata = common.arrowSchema === undefined ? undefined : { [ARROW_SCHEMA]: common.arrowSchema };
  return new SameSchemaKept(
    await ParquetFile.create(path, plan.writeSchema, { compression, metadata, footerSchema: plan.footerSchema }),
    plan.columns,
  );
}

/** Refuses, before any work, a Parquet `-o` that would have to change a column of the inputs' schema. */
export async function checkKeptOutput(path: string, inputs: readonly InputFile[]): Promise<void> {
  if (!isParquetOutput(path)) return;
  const common = await commonParquetSchema(inputs);
  if (common !== undefined) refuseUnwritable(path, inputs, common.schema);
}

function refuseUnwritable(path: string, inputs: readonly InputFile[], schema: SchemaElement[]): void {
  const unwritable = unwritableColumn(schema);
  if (unwritable === undefined) return;
  throw new InputError(
    inputs[0].path,
    0,
    `column "${unwritable.column}" ${unwritable.reason}; -o ${path} would not keep it exactly (write JSON Lines instead)`,
  );
}

/**
 * pyarrow's own schema in the footer: with it the kept file reads back as the same Arrow types (durations, time zones,
 * large strings).
 */
const ARROW_SCHEMA = 'ARROW:schema';

/** JSONL lines verbatim; Parquet rows and plain-text documents by the one JSON mapping (io/exactJson.ts). */
class JsonLinesKept implements KeptDocuments {
  constructor(private readonly file: BufferedFile) {}

  writeLine(bytes: Uint8Array): Promise<void> | undefined {
    const written = this.file.writeBytes(bytes);
    if (bytes[bytes.length - 1] === 0x0a) return written;
    // The file's last line had no end.
    return written === undefined ? this.file.write('\n') : written.then(() => this.file.write('\n'));
  }
  async write(document: InputDocument): Promise<void> {
    await this.file.write(documentAsJson(document) + '\n');
  }
  positionalPath(): string | undefined {
    return this.file.positionalPath();
  }
  commit(): Promise<void> {
    return this.file.commit();
  }
  abort(): Promise<void> {
    return this.file.abort();
  }
}

/**
 * The schema all inputs share when they are all Parquet (and their ARROW:schema, when all have the same), else
 * undefined.
 */
async function commonParquetSchema(
  inputs: readonly InputFile[],
): Promise<{ schema: SchemaElement[]; arrowSchema?: string } | undefined> {
  if (inputs.length === 0 || inputs.some((f) => f.format !== 'parquet')) return undefined;
  let first: { schema: SchemaElement[]; key: string; arrowSchema?: string } | undefined;
  for (const input of inputs) {
    const parquet = await localParquetFile(input.path, () => undefined);
    try {
      const { metadata } = await openParquet(parquet.file, input.path);
      const key = JSON.stringify(metadata.schema.map(({ field_id: _, ...element }) => element));
      const arrowSchema = metadata.key_value_metadata?.find((kv) => kv.key === ARROW_SCHEMA)?.value;
      if (first === undefined) first = { schema: metadata.schema, key, arrowSchema };
      else if (key !== first.key) return undefined;
      else if (arrowSchema !== first.arrowSchema) first.arrowSchema = undefined;
    } finally {
      await parquet.close();
    }
  }
  return first;
}

/** Buffers rows by column and writes a row group when it is full. */
class RowGroupBuffer {
  private data: unknown[][];
  private textLength = 0;

  constructor(
    private readonly file: ParquetFile,
    private readonly names: readonly string[],
    private readonly statistics?: readonly boolean[],
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
    await this.file.writeRowGroup(
      this.names.map((name, i) => ({ name, data: data[i], statistics: this.statistics?.[i] })),
    );
  }
}

class SameSchemaKept implements KeptDocuments {
  private readonly rows: RowGroupBuffer;

  constructor(
    private readonly file: ParquetFile,
    private readonly columns: readonly KeptParquetColumn[],
  ) {
    this.rows = new RowGroupBuffer(
      file,
      columns.map((c) => c.name),
      columns.map((c) => c.statistics),
    );
  }

  write(document: InputDocument): Promise<void> {
    const record = document.record ?? {};
    return this.rows.add(
      this.columns.map(({ name, convert }) => {
        const value = record[name] ?? null;
        return convert === undefined || value === null ? value : convert(value);
      }),
      document.text.length,
    );
  }

  async commit(): Promise<void> {
    await this.rows.flush();
    await this.file.commit();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}

class InferredSchemaKept implements KeptDocuments {
  private readonly inference = new KeptSchemaInference();

  constructor(
    private readonly path: string,
    /** The staged rows: a fresh temporary beside the output (temporaries.ts), deleted once the Parquet is written. */
    private readonly staged: string,
    private readonly staging: BufferedFile,
    private readonly compression: ParquetCompression | undefined,
  ) {}

  async write(document: InputDocument): Promise<void> {
    await this.staging.write(this.inference.stage(document) + '\n');
  }

  async commit(): Promise<void> {
    await this.staging.commit();
    const staged = this.staged;
    try {
      const columns = this.inference.columns();
      const file = await ParquetFile.create(this.path, flatSchema(columns), { compression: this.compression });
      try {
        const rows = new RowGroupBuffer(
          file,
          columns.map((c) => c.name),
        );
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
      removeTemporary(staged);
    }
  }

  async abort(): Promise<void> {
    await this.staging.abort();
    removeTemporary(this.staged);
  }
}
