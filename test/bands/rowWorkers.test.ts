// Spilled rows read in ranges, as the stage workers read them: every range's band keys (into shared columns, or sent
// back for the files per band) and the candidates' rows equal what the rows in memory give; answers taken in range
// order whatever order they come in; a failed range fails the whole, with no rejection left unhandled.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matrixBandKeys } from '../../src/bands/bandKeySource.js';
import { copyRows, rangeKeys, rangesOn, rowHandler, type RowRequest } from '../../src/bands/rowWorkers.js';
import { sharedWords } from '../../src/bands/sharedMemory.js';
import { signatureMatrix } from '../../src/bands/signatureMatrix.js';
import { EMPTY_SLOT_WORD } from '../../src/signatures/backend.js';
import { openWords } from '../../src/workers/wordReader.js';
import { rng } from '../support/reference.js';
import { plantedCorpus } from '../support/planted.js';
import { tempDir } from '../support/cli.js';

const corpus = plantedCorpus(17, 25, [1, 3, 9]);
const { k } = corpus.signatures;
const width = 2 * k; // 64-bit slots: two words each
// Every 10th document empty: never banded, its keys left zero.
const words = corpus.signatures.words.slice();
for (let d = 0; d < corpus.signatures.count; d += 10) words.fill(EMPTY_SLOT_WORD, d * width, (d + 1) * width);
const matrix = signatureMatrix(words, k);
const count = matrix.count;
const path = join(tempDir(), 'rows.bin');
writeFileSync(path, new Uint8Array(words.buffer));
const file = { path, k, slotBits: 64 as const, width };
const lsh = { bands: 16, rows: 8 };
const held = matrixBandKeys(matrix, lsh);

/** Ranges of `size` rows over the corpus. */
const rangeOf = (size: number) => (i: number) => ({ first: i * size, count: Math.min(size, count - i * size) });

describe('spilled rows read in ranges', () => {
  it('band keys into shared columns, range by range through the worker handler, equal the keys in memory', async () => {
    const handle = rowHandler(openWords);
    const nonEmpty = new Uint8Array(new SharedArrayBuffer(count));
    const columns = Array.from({ length: lsh.bands }, () => sharedWords(2 * count));
    const range = rangeOf(7);
    for (let i = 0; i * 7 < count; i++)
      expect(handle({ type: 'row keys', file, ...range(i), lsh, nonEmpty, columns }).response.keys).toBeUndefined();
    expect([...nonEmpty]).toEqual([...held.nonEmpty]);
    expect(nonEmpty.filter((x) => x === 0).length).toBe(Math.ceil(count / 10));
    for (let band = 0; band < lsh.bands; band++) expect([...columns[band]]).toEqual([...held.keysOf(band)]);
  });

  it('without columns each range sends its keys back; taken in range order from workers answering out of order', async () => {
    const handle = rowHandler(openWords);
    const random = rng(3);
    const pool = {
      size: 3,
      request: async (_worker: number, request: RowRequest) => {
        await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 4)));
        return handle(request).response;
      },
    };
    const nonEmpty = new Uint8Array(new SharedArrayBuffer(count));
    const size = 5;
    const joined = Array.from({ length: lsh.bands }, () => new Uint32Array(2 * count));
    const order: number[] = [];
    const ranges = Math.ceil(count / size);
    await rangesOn(
      pool,
      ranges,
      (i) => ({ type: 'row keys', file, ...rangeOf(size)(i), lsh, nonEmpty }),
      (i, { keys }) => {
        order.push(i);
        keys!.forEach((bandKeys, band) => joined[band].set(bandKeys, 2 * i * size));
      },
    );
    expect(order).toEqual(Array.from({ length: ranges }, (_, i) => i));
    for (let band = 0; band < lsh.bands; band++) expect([...joined[band]]).toEqual([...held.keysOf(band)]);
  });

  it("copies the candidates' rows to their places, on this thread as on a worker", () => {
    const rowAt = Int32Array.from({ length: count }, () => -1);
    let rows = 0;
    for (let d = 0; d < count; d++) if (d % 3 !== 1) rowAt[d] = rows++;
    for (const onWorker of [false, true]) {
      const into = sharedWords(rows * width);
      const range = rangeOf(11);
      for (let i = 0; i * 11 < count; i++) {
        const { first, count: n } = range(i);
        const request = { file, first, count: n, rowAt: rowAt.subarray(first, first + n), words: into };
        if (onWorker) rowHandler(openWords)({ type: 'row copy', ...request });
        else copyRows({ read: (out, from) => out.set(words.subarray(from, from + out.length)) }, request);
      }
      for (let d = 0; d < count; d++)
        if (rowAt[d] >= 0)
          expect(into.subarray(rowAt[d] * width, (rowAt[d] + 1) * width)).toEqual(
            words.subarray(d * width, (d + 1) * width),
          );
    }
  });

  it('a range that fails fails the whole, after every range in flight has settled', async () => {
    let settled = 0;
    const pool = {
      size: 2,
      request: async (_worker: number, request: RowRequest) => {
        await new Promise((resolve) => setTimeout(resolve, request.first === 0 ? 5 : 1));
        settled++;
        if (request.first === 1) throw new Error('range 1 failed');
        return {};
      },
    };
    const make = (i: number): RowRequest => ({
      type: 'row keys',
      file,
      first: i,
      count: 1,
      lsh,
      nonEmpty: new Uint8Array(count),
    });
    await expect(rangesOn(pool, 3, make)).rejects.toThrow('range 1 failed');
    expect(settled).toBe(3);
  });

  it('keys of a range computed on this thread equal the keys in memory (the path without workers)', () => {
    const nonEmpty = new Uint8Array(count);
    const own = rangeKeys(
      { read: (out, from) => out.set(words.subarray(from, from + out.length)) },
      { file, first: 0, count, lsh, nonEmpty },
    )!;
    for (let band = 0; band < lsh.bands; band++) expect([...own[band]]).toEqual([...held.keysOf(band)]);
  });
});
