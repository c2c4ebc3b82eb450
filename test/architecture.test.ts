/**
 * The layout's rules, checked on the source (README: Layout): which stage may
 * import which, and that the passes over files stay readable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

interface Import {
  readonly from: string;
  /** Repository-relative target for relative imports, else the module name. */
  readonly target: string;
  readonly typeOnly: boolean;
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    const target = specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : specifier;
    found.push({ from: file, target, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node) ? (node.importClause?.isTypeOnly ?? false) : node.isTypeOnly;
      add(node.moduleSpecifier.text, typeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0])) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const allImports = [...sourceFiles('src'), ...sourceFiles('web')].flatMap(importsOf);
const inside = (dir: string) => (path: string): boolean => path === dir || path.startsWith(`${dir}/`);
const describeImport = (i: Import): string => `${i.from} imports ${i.target}`;

describe('layout rules', () => {
  it('only src/pipeline, src/cli and src/index.ts import src/pipeline', () => {
    const allowed = (from: string): boolean => inside('src/pipeline')(from) || inside('src/cli')(from) || from === 'src/index.ts';
    expect(allImports.filter((i) => inside('src/pipeline')(i.target) && !allowed(i.from)).map(describeImport)).toEqual([]);
  });

  it('clusters, bands, text, math, plots and wasm import no node: module', () => {
    const pure = ['src/clusters', 'src/bands', 'src/text', 'src/math', 'src/plots', 'src/wasm'].map(inside);
    expect(allImports.filter((i) => pure.some((p) => p(i.from)) && i.target.startsWith('node:')).map(describeImport)).toEqual([]);
  });

  it('shingles import nothing from signatures', () => {
    expect(allImports.filter((i) => inside('src/shingles')(i.from) && inside('src/signatures')(i.target)).map(describeImport)).toEqual([]);
  });

  it('the in-memory stages import no I/O module except types', () => {
    const io = ['src/io', 'src/formats', 'src/workers', 'src/cli'].map(inside);
    const stages = ['src/clusters', 'src/bands'].map(inside);
    const bad = allImports.filter((i) => stages.some((s) => s(i.from)) && io.some((d) => d(i.target)) && !i.typeOnly);
    expect(bad.map(describeImport)).toEqual([]);
  });

  it("the app's main thread only draws: its modules import no computing code from src/, only validation and types", () => {
    const mainThread = ['web/main.ts', 'web/dom.ts', 'web/inspectorView.ts', 'web/workerClient.ts', 'web/progressView.ts', 'web/resultsView.ts'];
    const allowed = ['src/bands/lshParams.js', 'src/signatures/params.js', 'src/clusters/keepPolicy.js'];
    const bad = allImports.filter((i) => mainThread.includes(i.from) && inside('src')(i.target) && !i.typeOnly && !allowed.includes(i.target));
    expect(bad.map(describeImport)).toEqual([]);
    expect(allImports.filter((i) => i.from === 'web/main.ts').length).toBeGreaterThan(3); // the rule sees main.ts's imports
  });

  it('web/ runs the library core (dedupDocuments) and imports nothing from src/pipeline', () => {
    const web = allImports.filter((i) => inside('web')(i.from));
    expect(web.some((i) => i.target === 'src/clusters/dedupDocuments.js')).toBe(true);
    expect(web.filter((i) => inside('src/pipeline')(i.target)).map(describeImport)).toEqual([]);
  });

  it('no function in src/pipeline is longer than 60 lines', () => {
    const long: string[] = [];
    for (const file of sourceFiles('src/pipeline')) {
      const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022, true);
      const visit = (node: ts.Node): void => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          if (lines > 60) long.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} (${lines} lines)`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(long).toEqual([]);
  });
});
