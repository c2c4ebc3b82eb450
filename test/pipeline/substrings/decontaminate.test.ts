import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import {
  decontaminate,
  decontaminatePreflight,
  type DecontaminateConfig,
} from '../../../src/pipeline/substrings/decontaminate.js';
import { contaminationJson } from '../../../src/pipeline/substrings/contaminationReport.js';
import { DEFAULT_READ } from '../../../src/io/documents.js';
import { tempDir } from '../../support/tempDirs.js';
import { plantedCorpus } from '../../../bench/plantedItems.js';

const planted = plantedCorpus(9, 60, 20);

interface Files {
  readonly dir: string;
  readonly corpus: string;
  readonly benchmarks: string[];
}

/**
 * The corpus as JSONL with an extra field and a big integer (passed through exactly), and the items as two
 * benchmark files.
 */
function writeFiles(): Files {
  const dir = tempDir();
  const corpus = join(dir, 'corpus.jsonl');
  writeFileSync(
    corpus,
    planted.corpus
      .map((text, i) => `{"id":"doc-${i}","text":${JSON.stringify(text)},"n":12345678901234567890}\n`)
      .join(''),
  );
  const benchmarks = [0, 1].map((b) => {
    const path = join(dir, `bench${b}.jsonl`);
    const items = planted.references.map((text, i) => ({ text, i })).filter(({ i }) => planted.benchmarkOf[i] === b);
    writeFileSync(path, items.map(({ text, i }) => `${JSON.stringify({ id: `q${i}`, text })}\n`).join(''));
    return path;
  });
  return { dir, corpus, benchmarks };
}

function configOf(files: Files, overrides: Partial<DecontaminateConfig>): DecontaminateConfig {
  return {
    inputs: [files.corpus],
    against: files.benchmarks,
    minTokens: 13,
    action: 'remove',
    minRemaining: 1,
    read: DEFAULT_READ,
    normalize: { nfkc: false, stripPunctuation: false },
    ...overrides,
  };
}

async function run(config: DecontaminateConfig) {
  return decontaminate(config, await decontaminatePreflight(config));
}

const plantedDocuments = new Set(planted.plants.map((p) => `doc-${p.document}`));

describe('substrings --against (n-gram decontamination)', () => {
  it('removes exactly the documents with planted items and reports each span, counted per benchmark file', async () => {
    const files = writeFiles();
    const out = join(files.dir, 'kept.jsonl');
    const contamination = join(files.dir, 'contamination.jsonl');
    const summary = await run(configOf(files, { out, contamination }));
    expect(summary.contaminated).toBe(planted.plants.length);
    expect(summary.removed).toBe(planted.plants.length);
    const kept = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    const corpusLines = readFileSync(files.corpus, 'utf8').split('\n').filter(Boolean);
    expect(kept).toEqual(corpusLines.filter((line) => !plantedDocuments.has(JSON.parse(line).id)));
    const rows = readFileSync(contamination, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(new Set(rows.map((r) => r.id))).toEqual(plantedDocuments);
    for (const row of rows) {
      const plant = planted.plants.find((p) => `doc-${p.document}` === row.id)!;
      expect(row.reference).toBe(`q${plant.reference}`);
      expect(row.benchmark).toBe(files.benchmarks[planted.benchmarkOf[plant.reference]]);
      expect(Buffer.from(planted.corpus[plant.document]).subarray(row.start, row.end).toString()).toBe(row.span);
    }
    const perBenchmark = [0, 1].map((b) => planted.plants.filter((p) => planted.benchmarkOf[p.reference] === b).length);
    expect(summary.benchmarks.map((b) => b.documents)).toEqual(perBenchmark);
    expect(summary.benchmarks.reduce((sum, b) => sum + b.spans, 0)).toBe(rows.length);
  });

  it('cuts the spans: other fields stay exactly, what is left shares no 13-gram, the rest pass verbatim', async () => {
    const files = writeFiles();
    const out = join(files.dir, 'cut.jsonl');
    const summary = await run(configOf(files, { out, action: 'cut' }));
    const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean);
    const corpusLines = readFileSync(files.corpus, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBe(corpusLines.length);
    expect(summary.cut).toBe(planted.plants.length);
    expect(summary.bytesCut).toBeGreaterThan(planted.plants.length * 13 * 3);
    lines.forEach((line, i) => {
      if (!plantedDocuments.has(`doc-${i}`)) {
        expect(line).toBe(corpusLines[i]);
        return;
      }
      // Only the text changed: the rest of the line byte for byte.
      expect(line.replace(/"text":"(?:[^"\\]|\\.)*"/, '')).toBe(corpusLines[i].replace(/"text":"(?:[^"\\]|\\.)*"/, ''));
      expect(line.length).toBeLessThan(corpusLines[i].length);
    });
    // The cut corpus decontaminated again: nothing left to report.
    const again = join(files.dir, 'again.csv');
    const second = await run({ ...configOf(files, { contamination: again, action: 'report' }), inputs: [out] });
    expect(second.contaminated).toBe(0);
    expect(readFileSync(again, 'utf8')).toBe(
      'id,reference,benchmark,start,end,reference_start,reference_end,tokens,span\n',
    );
  });

  it('reports only: every document kept verbatim; the table as Parquet and the --report JSON agree', async () => {
    const files = writeFiles();
    const out = join(files.dir, 'all.jsonl');
    const contamination = join(files.dir, 'spans.parquet');
    const report = join(files.dir, 'report.json');
    const summary = await run(configOf(files, { out, contamination, report, action: 'report' }));
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(files.corpus, 'utf8'));
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(contamination) })) as {
      id: string;
      start: bigint;
      tokens: bigint;
    }[];
    expect(rows.length).toBe(summary.spans);
    expect(new Set(rows.map((r) => r.id))).toEqual(plantedDocuments);
    expect(rows.every((r) => Number(r.tokens) >= 13)).toBe(true);
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.format).toBe('gpudedup-contamination-report-1');
    expect(json).toEqual(JSON.parse(JSON.stringify(contaminationJson(summary, { minTokens: 13, action: 'report' }))));
    expect(json.benchmarks.map((b: { documents: number }) => b.documents).reduce((a: number, b: number) => a + b)).toBe(
      planted.plants.length,
    );
  });

  it('refuses bad input before any work, in one line naming it', async () => {
    const files = writeFiles();
    const empty = join(files.dir, 'empty.jsonl');
    writeFileSync(empty, '\n');
    const out = join(files.dir, 'out.jsonl');
    await expect(run(configOf(files, { out, against: [...files.benchmarks, empty] }))).rejects.toThrow(
      `${empty}: no reference documents (--against needs at least one document per file)`,
    );
    await expect(run(configOf(files, { out, against: [join(files.dir, 'missing.jsonl')] }))).rejects.toThrow(
      /missing\.jsonl/,
    );
    await expect(run(configOf(files, { out: files.benchmarks[0] }))).rejects.toThrow(
      `-o ${files.benchmarks[0]}: is an input (--against); writing it would destroy it (give another output name)`,
    );
    await expect(run(configOf(files, { out: undefined, action: 'cut' }))).rejects.toThrow(
      '--action cut needs -o FILE (where the corpus goes after it)',
    );
    await expect(run(configOf(files, { out, against: [] }))).rejects.toThrow(
      '--against needs at least one reference file',
    );
    await expect(run(configOf(files, { out, against: [files.corpus] }))).rejects.toThrow(
      `--against ${files.corpus}: is the corpus file ${files.corpus}; every one of its documents would match itself`,
    );
    const broken = join(files.dir, 'broken.jsonl');
    writeFileSync(broken, '{"text":"fine"}\n{"text":\n');
    await expect(run(configOf(files, { out, against: [broken] }))).rejects.toThrow(`${broken}:2:`);
    // A malformed corpus line late in the file: the run fails naming it, and leaves no output behind.
    const corpus = join(files.dir, 'late-error.jsonl');
    writeFileSync(corpus, `${readFileSync(files.corpus, 'utf8')}{"id":"x","text":"unterminated\n`);
    const contamination = join(files.dir, 'late.csv');
    await expect(run({ ...configOf(files, { out, contamination }), inputs: [corpus] })).rejects.toThrow(
      `${corpus}:61:`,
    );
    expect(existsSync(out)).toBe(false);
    expect(existsSync(contamination)).toBe(false);
    expect(readdirSync(files.dir).filter((name) => name.includes('.tmp') || name.startsWith('.'))).toEqual([]);
    // --skip-invalid: counted in the summary instead.
    const skipping = await run({
      ...configOf(files, { out, read: { ...DEFAULT_READ, skipInvalid: true } }),
      inputs: [corpus],
    });
    expect(skipping.invalidSkipped).toBe(1);
    expect(skipping.documents).toBe(60);
  });
});
