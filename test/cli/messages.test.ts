// How the command line words things: an invalid option is one line and where to look (not the whole help);
// a --plot or --plots path of the wrong kind is refused before any work in words, not as EISDIR/EEXIST;
// bench -q still prints its table; counts read "1 document", "1,935 of 2,000 slots"; the licence is there.
import { readFileSync, mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, runCliHere } from '../support/cli.js';

const dir = tempDir('gpudedup-messages-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const corpus = join(dir, 'c.jsonl');
writeFileSync(
  corpus,
  '{"id":"a","text":"the quick brown fox jumps over the lazy dog"}\n{"id":"b","text":"the quick brown fox jumps over the lazy cat"}\n',
);

describe('an invalid option value', () => {
  it('is the one-line error and where to find the options, not the whole help', async () => {
    const result = await runCliHere(['dedup', corpus, '--verify', 'exactt', '--backend', 'cpu']);
    expect(result.code).toBe(1);
    // The options table's message (src/options.ts), the same in the library and the tab.
    expect(result.stderr).toBe(
      "error: option '--verify <mode>' argument 'exactt' is invalid. verify must be one of hybrid, estimate, exact or none, got \"exactt\"\n(see 'gpudedup dedup --help')\n",
    );
    const unknown = await runCli(['dedupp']);
    expect(unknown.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(3);
    expect(unknown.stderr).toContain("(see 'gpudedup --help')");
  });
});

describe('plot paths of the wrong kind', () => {
  it('--plot naming a directory is refused before any work, naming it', async () => {
    const plots = join(dir, 'a-directory');
    mkdirSync(plots);
    const result = await runCliHere(['params', '-t', '0.8', '--plot', plots]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`gpudedup: --plot ${plots}: is a directory; give a file name\n`);
    expect(result.stdout).toBe('');
  });

  it('--plots naming a file is refused before any work, naming it', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    const report = join(dir, 'report.json');
    const result = await runCli(['dedup', corpus, '--plots', file, '--report', report, '--backend', 'cpu', '-q']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`gpudedup: --plots ${file}: is a file; give a directory (it is created if missing)\n`);
    expect(existsSync(report)).toBe(false); // nothing ran
  });
});

describe('bench -q', () => {
  it('prints the table (the result), only the notes are quiet', async () => {
    const result = await runCli(['bench', corpus, '--runs', '1', '--no-webgpu', '-k', '16', '-q']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^2 documents, .* k = 16/);
    expect(result.stdout).toContain('| backend | seconds (median) |');
  });
});

describe('counts', () => {
  it('params writes slots with thousands separators', async () => {
    const result = await runCli(['params', '-k', '2000', '-t', '0.8']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^k = 2000, threshold = 0\.8: \d+ bands × \d+ rows \(1,\d{3} of 2,000 slots\)/);
  });

  it('bench names one document in the singular', async () => {
    const one = join(dir, 'one.jsonl');
    writeFileSync(one, '{"id":"a","text":"alone"}\n');
    const result = await runCli(['bench', one, '--runs', '1', '--no-webgpu', '-k', '16']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^1 document, [\d.]+ MB, 1 shingle, k = 16: 16 hash evaluations\n/);
  });
});

describe('the licence', () => {
  it('is the MIT licence that package.json names, word for word as SPDX has it', () => {
    const license = readFileSync('LICENSE', 'utf8');
    expect((JSON.parse(readFileSync('package.json', 'utf8')) as { license: string }).license).toBe('MIT');
    // The bundled corpus is the SPDX License List: its MIT text, with our copyright line, is the reference.
    const spdx = gunzipSync(readFileSync('data/sample.jsonl.gz'))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; text: string })
      .find((r) => r.id === 'MIT')!;
    const words = (text: string): string => text.replace(/\s+/g, ' ').trim();
    expect(words(license)).toBe(words(spdx.text.replace('<year> <copyright holders>', '2026 the gpudedup authors')));
  });
});
