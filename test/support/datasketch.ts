/**
 * datasketch 2.0.0 (and numpy) from PyPI as the independent reference of the
 * datasketch schemes. .ci/run installs them (scripts/install-datasketch.sh);
 * elsewhere a missing package skips with the command that installs it, and
 * under CI (env CI set) it fails instead, so a broken image cannot pass by skipping.
 */
import { execFileSync } from 'node:child_process';
import { beforeEach, describe } from 'vitest';

export const DATASKETCH_HINT =
  'install the reference with: bash scripts/install-datasketch.sh (pip install datasketch==2.0.0)';

const underCi = (): boolean => !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/** Why datasketch 2.0.0 cannot be used here, or undefined when it can. */
export function datasketchMissing(): string | undefined {
  try {
    const version = execFileSync('python3', ['-c', 'import datasketch, numpy; print(datasketch.__version__)'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
    return version === '2.0.0' ? undefined : `datasketch ${version} is installed, the tests need 2.0.0`;
  } catch (error) {
    return `python3 cannot import datasketch and numpy (${(error as Error).message.split('\n')[0]})`;
  }
}

/** Runs a Python program with `input` on stdin; returns its stdout. */
export function runPython(program: string, input = '', args: readonly string[] = []): string {
  return execFileSync('python3', ['-c', program, ...args], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** A suite that needs datasketch: skipped with the hint without it, failed under CI. */
export function describeWithDatasketch(name: string, body: () => void): void {
  describe(name, () => {
    const missing = datasketchMissing();
    beforeEach((context) => {
      if (!missing) return;
      const message = `${missing}; ${DATASKETCH_HINT}`;
      if (underCi()) throw new Error(`${message} (CI is set, so this fails instead of skipping)`);
      context.skip(message);
    });
    body();
  });
}

/** Each document's datasketch hash values after update_batch of its shingle strings, UTF-8 encoded, as decimal strings. */
export function datasketchRows(
  scheme: string,
  seed: number,
  k: number,
  shingles: readonly (readonly string[])[],
): string[][] {
  const program = `
import json, sys
from datasketch import MinHash
job = json.load(sys.stdin)
base = MinHash(num_perm=job["k"], seed=job["seed"], scheme=job["scheme"])
rows = []
for doc in job["docs"]:
    m = base.copy()
    m.update_batch([s.encode("utf-8") for s in doc])
    rows.append(" ".join(str(int(v)) for v in m.hashvalues))
print("\\n".join(rows))
`;
  const output = runPython(program, JSON.stringify({ scheme, seed, k, docs: shingles }));
  return output
    .split('\n')
    .slice(0, shingles.length)
    .map((line) => line.split(' '));
}
