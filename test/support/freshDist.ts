/**
 * Tests that run the built CLI (dist/src/cli/main.js) or pack dist/ refuse a
 * dist/ older than the sources, rather than test yesterday's build: every
 * src/**\/*.ts (and every .wat and AssemblyScript .as.ts kernel, compiled through its generated module)
 * must have its dist/src/**\/*.js, written after it. `npm test` builds first;
 * after an edit, `npm run build` before running a CLI test alone.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/** The sources whose compiled files are stale or missing, as "src/a.ts (dist/src/a.js is older)". */
export function staleDistFiles(root = ROOT): string[] {
  const stale: string[] = [];
  for (const entry of readdirSync(join(root, 'src'), { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const source = join(entry.parentPath, entry.name);
    const rel = relative(root, source);
    let built: string;
    if (entry.name.endsWith('.wat') || entry.name.endsWith('.as.ts'))
      built = join(root, 'dist', dirname(rel), 'kernels.generated.js');
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
      built = join(root, 'dist', rel.replace(/\.ts$/, '.js'));
    else continue;
    if (!existsSync(built)) stale.push(`${rel} (${relative(root, built)} is missing)`);
    else if (statSync(built).mtimeMs < statSync(source).mtimeMs)
      stale.push(`${rel} (${relative(root, built)} is older)`);
  }
  return stale.sort();
}

/** Throws, naming the first stale files, unless dist/ is as new as src/. */
export function requireFreshDist(root = ROOT): void {
  const stale = staleDistFiles(root);
  if (stale.length === 0) return;
  const shown = stale.slice(0, 3).join(', ') + (stale.length > 3 ? `, and ${stale.length - 3} more` : '');
  throw new Error(`dist/ is older than its sources: ${shown}. Run \`npm run build\` first (npm test does).`);
}
