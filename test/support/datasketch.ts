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

/** One signing by datasketch: a scheme (its name without `datasketch-`), seed and k, over the documents' shingle strings. */
export interface DatasketchJob {
  readonly scheme: string;
  readonly seed: number;
  readonly k: number;
  readonly shingles: readonly (readonly string[])[];
}

/**
 * datasketch's MinHash values (decimal) for each job, each document's row, computed by one Python process for all
 * the jobs (each process pays for importing numpy and datasketch). Jobs that share their documents' array send it once.
 */
export function datasketchRowsOfJobs(jobs: readonly DatasketchJob[]): string[][][] {
  const program = `
import json, sys
from datasketch import MinHash
job = json.load(sys.stdin)
out = []
for j in job["jobs"]:
    base = MinHash(num_perm=j["k"], seed=j["seed"], scheme=j["scheme"])
    for doc in job["docsets"][j["docs"]]:
        m = base.copy()
        m.update_batch([s.encode("utf-8") for s in doc])
        out.append(" ".join(str(int(v)) for v in m.hashvalues))
print("\\n".join(out))
`;
  const docsets: (readonly (readonly string[])[])[] = [];
  const sent = jobs.map(({ scheme, seed, k, shingles }) => {
    if (!docsets.includes(shingles)) docsets.push(shingles);
    return { scheme, seed, k, docs: docsets.indexOf(shingles) };
  });
  const lines = runPython(program, JSON.stringify({ docsets, jobs: sent })).split('\n');
  let at = 0;
  return jobs.map(({ shingles }) => lines.slice(at, (at += shingles.length)).map((line) => line.split(' ')));
}

/** Each document's datasketch hash values after update_batch of its shingle strings, UTF-8 encoded, as decimal strings. */
export function datasketchRows(
  scheme: string,
  seed: number,
  k: number,
  shingles: readonly (readonly string[])[],
): string[][] {
  return datasketchRowsOfJobs([{ scheme, seed, k, shingles }])[0];
}
