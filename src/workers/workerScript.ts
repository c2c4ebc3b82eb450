/**
 * Where a worker thread's compiled script is. Compiled code finds it beside
 * the caller in dist/; the tests run the TypeScript from src/, where only the
 * .ts exists, so they use the build in dist/ (`npm test` builds first).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @param callerUrl  `import.meta.url` of the module that starts the worker
 * @param script     the worker's path relative to src/, e.g. `signatures/cpuWorker.js`
 */
export function workerScript(callerUrl: string, script: string): string {
  const here = dirname(fileURLToPath(callerUrl));
  const sibling = join(here, script.split('/').pop()!);
  if (existsSync(sibling)) return sibling;
  for (let dir = here; dirname(dir) !== dir; dir = dirname(dir)) {
    const built = join(dir, 'dist', 'src', ...script.split('/'));
    if (existsSync(join(dir, 'package.json')) && existsSync(built)) return built;
  }
  throw new Error(`gpudedup: ${script} not found; run \`npm run build\``);
}
