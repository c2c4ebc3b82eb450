// The first pass with its WebAssembly kernel against the same pass on the TypeScript path alone:
// every document's id, keys, score, place and shingle set, the selection and the signatures, equal
// on a corpus of awkward lines (a BOM, CRLF and lone CR, blank and invalid lines, ids that are numbers,
// missing, escaped, lone surrogates or start with U+FEFF, Greek capitals, Turkish İ, ZWJ emoji), for
// units of any size, both keep policies that the kernel serves, word and char shingles.
import { describe, expect, it } from 'vitest';
import { ExactPrePass } from '../../src/exact/exactPrePass.js';
import { UniqueIds } from '../../src/exact/uniqueIds.js';
import { firstPass } from '../../src/firstPass/firstPass.js';
import { firstPassHandler } from '../../src/firstPass/handler.js';
import { lineUnits } from '../../src/firstPass/lineUnits.js';
import { InlineWorkers, type FirstPassSources } from '../../src/firstPass/ports.js';
import { unitId, type InputUnit, type ReadSetup } from '../../src/firstPass/protocol.js';
import { makeHashFamily } from '../../src/signatures/hashFamily.js';
import { DEFAULT_NORMALIZE } from '../../src/text/normalize.js';

describe('the first pass, ordering', () => {
  it('reads ahead where the id and exact keys of each unit go before adding them one by one', async () => {
    const touched: string[] = [];
    const prePass = new ExactPrePass(DEFAULT_NORMALIZE, { kind: 'first' });
    const ids = new UniqueIds();
    const spy = <T extends { touch(keys: Uint32Array, count: number): number }>(table: T, name: string): T => {
      const touch = table.touch.bind(table);
      table.touch = (keys, count) => {
        touched.push(`${name} ${count} ${keys.length}`);
        return touch(keys, count);
      };
      return table;
    };
    const lines = Array.from({ length: 40 }, (_, i) => `{"id": "d${i}", "text": "text ${i % 30} here"}`);
    const chunks = async function* () {
      yield new TextEncoder().encode(lines.join('\n'));
    };
    const units = firstPass(lineUnits('c.jsonl', chunks(), false, 600), {
      setup: {
        read: { textField: 'text', idField: 'id', skipInvalid: false, strict: false },
        shingle: { mode: 'word', n: 2, normalize: DEFAULT_NORMALIZE, hash: 'fnv1a64' },
        keep: { kind: 'first' },
      },
      workers: new InlineWorkers(firstPassHandler(sources(new Uint8Array(0)))),
      finish: { sign: false },
      prePass: spy(prePass, 'exact'),
      ids: spy(ids, 'ids'),
    });
    const counts: number[] = [];
    for await (const unit of units) counts.push(unit.documents.count);
    expect(counts.length).toBeGreaterThan(1);
    expect(touched).toEqual(counts.flatMap((n) => [`ids ${n} ${4 * n}`, `exact ${n} ${4 * n}`]));
    expect(prePass.table.groups).toBe(30);
  });
});

const WORDS = [
  'the',
  'Quick',
  'BROWN',
  'fox',
  'ΣΊΣΥΦΟΣ',
  'ΟΔΟΣ',
  'İstanbul',
  'ǅemal',
  'K',
  'straße',
  '👩‍👩‍👧',
  '東京',
  'タワー',
  'a\u00a0b',
  'x\u2003y',
  'tab\there',
];
const IDS = ['"\\ud800"', '"\\ufeffx"', '7', '', '"a\\u0000b"', '"\\ud83d\\ude00"', '"ok"', '-5', '"q\\""', '"\u00e9"'];

function corpus(): Uint8Array {
  let seed = 9;
  const random = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const lines: string[] = [];
  for (let i = 0; i < 300; i++) {
    const words = Array.from({ length: Math.floor(random() * 25) }, () => WORDS[Math.floor(random() * WORDS.length)]);
    const text = random() < 0.2 ? words.join(' ').toUpperCase() : words.join(random() < 0.5 ? ' ' : '  ');
    const id = IDS[i % IDS.length];
    const idPart =
      id === '' ? '' : id.startsWith('"') ? `"id": ${id.slice(0, -1)}${i}", ` : `"id": ${Number(id) * 1000 + i}, `;
    const json =
      random() < 0.5
        ? JSON.stringify(text)
        : JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    lines.push(i % 37 === 5 ? `{"id": "bad${i}", "text": }` : `{${idPart}"text": ${json}, "n": [1, {"k": null}]}`);
    if (i % 23 === 0) lines.push(i % 2 === 0 ? '' : '  \t');
    if (i % 29 === 0) lines.push(`{"id": "dup${i}", "text": "same TEXT as before"}`);
  }
  return new TextEncoder().encode('\ufeff' + lines.slice(0, 150).join('\r\n') + '\r' + lines.slice(150).join('\n'));
}

/** The corpus's bytes by position, as a Node worker reads a file by range. */
function sources(bytes: Uint8Array): FirstPassSources {
  return {
    readWhole: () => Promise.reject(new Error('not used')),
    openParquet: () => Promise.reject(new Error('not used')),
    readAt: async (_source, position, length) => bytes.slice(position, position + length),
  };
}

/** The corpus as the CLI hands an uncompressed file to the workers: byte ranges of `step`, cut anywhere. */
function ranges(bytes: Uint8Array, step: number): InputUnit[] {
  return Array.from({ length: Math.ceil(bytes.length / step) }, (_, i) => ({
    kind: 'range',
    path: 'c.jsonl',
    source: 'c.jsonl',
    start: i * step,
    end: Math.min(bytes.length, (i + 1) * step),
    size: bytes.length,
    qualifyIds: false,
  }));
}

/** `unitBytes`: streamed in units of about that size; `byRange`: in ranges of that size instead. */
async function run(
  bytes: Uint8Array,
  unitBytes: number,
  setup: ReadSetup,
  useKernel: boolean,
  { sharedSets = false, byRange = 0 } = {},
) {
  const { seed: _seed, ...family } = makeHashFamily(128, { hi: 0, lo: 42 });
  const chunks = async function* () {
    for (let at = 0; at < bytes.length; at += 4096) yield bytes.subarray(at, at + 4096);
  };
  const workers = new InlineWorkers(firstPassHandler(sources(bytes), { useKernel }));
  const invalid: string[] = [];
  const out: unknown[] = [];
  const input = byRange > 0 ? ranges(bytes, byRange) : lineUnits('c.jsonl', chunks(), false, unitBytes);
  const units = firstPass(input, {
    setup,
    workers,
    finish: { sign: true, family, kernel: 'wasm-simd', keepSets: true, sharedSets },
    prePass: new ExactPrePass(DEFAULT_NORMALIZE, setup.keep),
    ids: new UniqueIds(),
    onInvalid: (m) => invalid.push(m),
  });
  for await (const unit of units) {
    const d = unit.documents;
    for (let i = 0; i < d.count; i++) {
      out.push([
        unitId(d, i),
        [...d.idKeys.subarray(4 * i, 4 * i + 4)],
        [...d.exactKeys.subarray(4 * i, 4 * i + 4)],
        d.empty[i],
        d.scores[i],
        d.lines[i],
        d.starts[i],
        d.ends[i],
        unit.groups[i],
      ]);
    }
    out.push([
      'unit',
      d.textBytes,
      [...unit.selected],
      [...unit.result.signatures!],
      [...unit.result.shingles!],
      [...unit.result.offsets!],
      unit.result.shingles!.buffer instanceof SharedArrayBuffer,
    ]);
  }
  return { out, invalid };
}

describe('the first pass with its kernel', () => {
  const bytes = corpus();
  for (const [name, keep, mode, hash] of [
    ['keep first, word shingles', { kind: 'first' }, 'word', 'fnv1a64'],
    ['keep longest, char shingles', { kind: 'longest' }, 'char', 'fnv1a64'],
    ['SHA-1 word shingles, as the datasketch schemes', { kind: 'first' }, 'word', 'sha1-32'],
  ] as const) {
    it(`equals the TypeScript path on awkward lines, for any unit size (${name})`, async () => {
      const setup: ReadSetup = {
        read: { textField: 'text', idField: 'id', skipInvalid: true, strict: false },
        shingle: { mode, n: mode === 'char' ? 4 : 5, normalize: DEFAULT_NORMALIZE, hash },
        keep,
      };
      const reference = await run(bytes, 1 << 19, setup, false);
      expect(reference.invalid.length).toBeGreaterThan(5);
      expect(reference.out.length).toBeGreaterThan(250); // ids with a lone surrogate are refused (invalid) since issue 31 item 6
      // Streamed in units of any size, or read by the workers in ranges cut anywhere (inside a line, a \r\n, a UTF-8
      // character; ranges that hold no line start): the same documents in the same order, the same line numbers.
      const runs = [1, 700, 5000, 1 << 19].map((unitBytes) => ({ unitBytes, byRange: 0 }));
      for (const byRange of [13, 700, 5000]) runs.push({ unitBytes: 0, byRange });
      for (const { unitBytes, byRange } of runs) {
        const got = await run(bytes, unitBytes, setup, true, { byRange });
        expect(got.invalid).toEqual(reference.invalid);
        // Units differ in size, so compare documents, then every unit's signatures and sets joined.
        const documents = (r: typeof got) => r.out.filter((row) => (row as unknown[])[0] !== 'unit');
        const joined = (r: typeof got) =>
          r.out.filter((row) => (row as unknown[])[0] === 'unit').flatMap((row) => (row as unknown[][])[3]);
        expect(documents(got)).toEqual(documents(reference));
        expect(joined(got)).toEqual(joined(reference));
      }
      // Sets asked for in shared memory: the same words, each unit's in a SharedArrayBuffer (kept where it lies).
      const plain = await run(bytes, 5000, setup, true);
      const shared = await run(bytes, 5000, setup, true, { sharedSets: true });
      const units = (r: Awaited<ReturnType<typeof run>>) =>
        r.out.filter((row) => (row as unknown[])[0] === 'unit') as unknown[][];
      expect(units(shared).map((row) => row.slice(0, 6))).toEqual(units(plain).map((row) => row.slice(0, 6)));
      expect(units(shared).every((row) => row[6] === true)).toBe(true);
      expect(units(plain).some((row) => row[6] === true)).toBe(false);
    });
  }
});
