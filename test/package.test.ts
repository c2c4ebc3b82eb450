/**
 * The package is the library: `npm pack` ships the library and CLI build and
 * what they load at run time (the WGSL shaders, the Spark job's Python, the sample
 * corpus `npm start` and `gpudedup bench` read), not bench/, test/ or sources; and its .d.ts files
 * compile in a consumer with `skipLibCheck: false` and none of our
 * devDependencies (@webgpu/types in particular) installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/cli.js';
import { requireFreshDist } from './support/freshDist.js';

const ROOT = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackResult {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
}

/** The compiler options the README's library quick start gives TypeScript users (its ```json block). */
function readmeCompilerOptions(): Record<string, unknown> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Quick start: the library'),
    readme.indexOf('## Quick start: the browser'),
  );
  const block = /```json\n([\s\S]*?)```/.exec(section);
  expect(block, "README.md: the library quick start's tsconfig (```json)").not.toBeNull();
  const options = (JSON.parse(block?.[1] ?? '{}') as { compilerOptions: Record<string, unknown> }).compilerOptions;
  expect(options.lib).toEqual(['ES2022', 'DOM']);
  return options;
}

let dir: string;
let packed: PackResult;
let files: Set<string>;

beforeAll(() => {
  requireFreshDist(); // the pack takes dist/ as it is: never a stale one
  dir = tempDir('gpudedup-pack-');
  // --ignore-scripts: `prepare` would build again; the check above stands for it.
  const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  packed = (JSON.parse(out) as PackResult[])[0];
  files = new Set(packed.files.map((f) => f.path));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm pack', () => {
  it('ships the build of src/, the shaders, the Spark job and the sample corpus; no bench/, test/, web/ or TypeScript sources', () => {
    for (const needed of [
      'package.json',
      'README.md',
      'dist/src/index.js',
      'dist/src/index.d.ts',
      'dist/src/cli/main.js',
      'dist/src/options.js',
      'shaders/minhash.wgsl',
      'shaders/oph.wgsl',
      'shaders/mersenne61.wgsl',
      'data/sample.jsonl.gz',
      'src/engines/sparkJob.py',
    ]) {
      expect(files, needed).toContain(needed);
    }
    const foreign = [...files].filter(
      (f) =>
        !/^(dist\/src\/|shaders\/|data\/sample\.jsonl\.gz$|src\/engines\/sparkJob\.py$|package\.json$|README\.md$|LICENSE)/.test(
          f,
        ),
    );
    expect(foreign).toEqual([]);
    expect(
      [...files].filter((f) => /^(dist\/)?(bench|test)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
    ).toEqual([]);
  });

  it('every relative import of a shipped module is shipped (the CLI and library load nothing left behind)', () => {
    const missing: string[] = [];
    for (const file of files) {
      if (!file.endsWith('.js')) continue;
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = posix.normalize(posix.join(posix.dirname(file), match[1]));
        if (target.endsWith('.wgsl?raw')) continue; // browserShaders.js: for the tab's bundler, never loaded by Node
        if (!files.has(target)) missing.push(`${file} imports ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  // Issue 31, item 16: the tarball kept a `prepare` script (`node scripts/build-wasm.mjs`) but not scripts/, so npm's
  // install of it failed with MODULE_NOT_FOUND. `prepare` now builds only where the build's sources are (a clone).
  it('npm installs the unpacked tarball into a project (no install-time script needs what it does not ship), and it runs', () => {
    const unpacked = join(dir, 'installable');
    const project = join(dir, 'project');
    mkdirSync(unpacked, { recursive: true });
    mkdirSync(project, { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', unpacked, '--strip-components=1']);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', type: 'module', private: true }),
    );
    // A local folder is linked, not fetched: no network; its lifecycle scripts run as for any install.
    execFileSync(npm, ['install', unpacked, '--offline', '--no-audit', '--no-fund'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Its dependencies, as npm would fetch them: ours.
    symlinkSync(join(ROOT, 'node_modules'), join(unpacked, 'node_modules'), 'dir');
    const script =
      "import { minhash } from 'gpudedup'; const s = await minhash(['a b c d e f g'], { k: 4, backend: 'cpu' }); console.log(s.rows, s.k);";
    expect(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: project, encoding: 'utf8' }).trim(),
    ).toBe('1 4');
    expect(
      execFileSync(join(project, 'node_modules/.bin/gpudedup'), ['--version'], {
        cwd: project,
        encoding: 'utf8',
      }).trim(),
    ).toMatch(/^\d+\.\d+\.\d+/);
  }, 120_000);

  it('the shipped types compile in a consumer with skipLibCheck: false, without @webgpu/types or any devDependency', () => {
    const consumer = join(dir, 'consumer');
    const modules = join(consumer, 'node_modules');
    const installed = join(modules, 'gpudedup');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', installed, '--strip-components=1']);
    // What `npm install gpudedup` gives a TypeScript project: our dependencies (with theirs, e.g. webgpu's
    // @webgpu/types, found from their real paths) and the project's own @types/node.
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const name of [
      ...Object.keys(pkg.dependencies),
      ...Object.keys(pkg.optionalDependencies ?? {}),
      '@types/node',
    ]) {
      mkdirSync(dirname(join(modules, name)), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', name), join(modules, name), 'dir');
    }
    writeFileSync(
      join(consumer, 'consumer.ts'),
      [
        "import { createMinHasher, dedup, minhash, OPTIONS, type DedupOptions, type Signatures } from 'gpudedup';",
        "const options: DedupOptions = { threshold: OPTIONS.threshold.default, backend: 'cpu', keep: 'longest' };",
        'export async function run(): Promise<number> {',
        "  const signed: Signatures = await minhash(['a b c d e'], { k: 16, backend: 'cpu' });",
        '  const hasher = await createMinHasher({ k: 16 });',
        '  hasher.destroy();',
        "  const { assignment } = await dedup(['a b c d e f', 'a b c d e f'], options);",
        '  return signed.rows + assignment.kept.length;',
        '}',
      ].join('\n'),
    );
    // The README's tsconfig for library users (issue 40, item 10): DOM in lib, as @webgpu/types itself (every
    // `webgpu` user's) names DOM types such as VideoFrame and EventInit.
    const compilerOptions = {
      target: 'ES2022',
      types: ['node'],
      strict: true,
      ...readmeCompilerOptions(),
      skipLibCheck: false,
      noEmit: true,
    };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    let output = '';
    try {
      execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(consumer, 'tsconfig.json')],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  }, 180_000);
});
