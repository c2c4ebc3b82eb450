/**
 * Input readers' throughput (`npm run bench:readers`): the sample corpus
 * repeated to ~20 MB, written as JSON Lines, gzip and zstd JSON Lines, and
 * Parquet (snappy, zstd; row groups of 1,000 rows), then read through
 * readDocuments as dedup reads it. MB/s counts the documents' UTF-8 text, the
 * same for every format; the ratio is to plain JSON Lines in the same run.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BufferedFile } from '../src/formats/files/tableWriter.js';
import { flatSchema, ParquetFile } from '../src/formats/parquet/parquetFile.js';
import { listInputFiles, readDocuments } from '../src/io/readDocuments.js';
import { loadSampleCorpus, utf8Bytes } from './corpus.js';

const COPIES = Number(process.env.COPIES ?? 4);
const ROUNDS = 3;

async function main(): Promise<void> {
  const sample = loadSampleCorpus();
  const records = Array.from({ length: COPIES }, (_, c) =>
    sample.map((d) => ({ id: `${d.id}#${c}`, text: d.text })),
  ).flat();
  const textBytes = utf8Bytes(records);
  const dir = mkdtempSync(join(tmpdir(), 'gpudedup-bench-readers-'));
  try {
    const jsonl = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const files: [string, string][] = [
      ['JSON Lines', join(dir, 'corpus.jsonl')],
      ['gzip JSON Lines', join(dir, 'corpus.jsonl.gz')],
      ['zstd JSON Lines', join(dir, 'corpus.jsonl.zst')],
    ];
    writeFileSync(files[0][1], jsonl);
    writeFileSync(files[1][1], gzipSync(jsonl));
    const zst = await BufferedFile.create(files[2][1]);
    await zst.write(jsonl);
    await zst.commit();
    for (const compression of ['snappy', 'zstd'] as const) {
      const path = join(dir, `corpus-${compression}.parquet`);
      const file = await ParquetFile.create(
        path,
        flatSchema([
          { name: 'id', type: 'STRING' },
          { name: 'text', type: 'STRING' },
        ]),
        { compression },
      );
      for (let start = 0; start < records.length; start += 1000) {
        const group = records.slice(start, start + 1000);
        await file.writeRowGroup([
          { name: 'id', data: group.map((r) => r.id) },
          { name: 'text', data: group.map((r) => r.text) },
        ]);
      }
      await file.commit();
      files.push([`Parquet ${compression}`, path]);
    }

    const seconds = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, path] of files) {
        const started = performance.now();
        let documents = 0;
        for await (const _ of readDocuments(await listInputFiles([path]))) documents++;
        if (documents !== records.length)
          throw new Error(`${name}: read ${documents} documents, expected ${records.length}`);
        const s = (performance.now() - started) / 1000;
        seconds.set(name, Math.min(seconds.get(name) ?? Infinity, s));
      }
    }
    const baseline = seconds.get('JSON Lines')!;
    console.log(`${records.length} documents, ${(textBytes / 1e6).toFixed(1)} MB of text; best of ${ROUNDS} rounds`);
    console.log('| reader | file size | time | docs/s | MB/s of text | vs JSON Lines |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const [name, path] of files) {
      const s = seconds.get(name)!;
      console.log(
        `| ${name} | ${(statSync(path).size / 1e6).toFixed(1)} MB | ${s.toFixed(3)} s | ${Math.round(records.length / s).toLocaleString('en-US')} | ` +
          `${(textBytes / 1e6 / s).toFixed(1)} | ${(baseline / s).toFixed(2)}× |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
