/**
 * `gpudedup index …` and `gpudedup query` as a user runs them (the built CLI,
 * real processes, real files; the states read back after a run, and the
 * refusals of bad input, through runCliHere, in this process): a create + add + query round trip; a second
 * writer refused while an add runs (and a reader served meanwhile); SIGKILL
 * at points spread over `index add` (several seeds) leaving an index that
 * opens and answers exactly as before the add or as after it; a corrupt
 * segment detected and named; bad input named by file:line before the
 * index changes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, runCli, runCliHere, tempDir, type CliResult } from '../support/cli.js';

/** A seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct documents of 100 words (ids `prefix0…`), and near-duplicates: one word changed (J ≈ 0.9 on word 5-grams). */
function documents(prefix: string, count: number, seed: number): { id: string; text: string }[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i}`,
    text: Array.from({ length: 100 }, () => `w${Math.floor(next() * 20000)}`).join(' '),
  }));
}

function nearDuplicate(text: string, salt: string): string {
  const words = text.split(' ');
  words[50] = `changed${salt}`;
  return words.join(' ');
}

const jsonl = (docs: readonly object[]): string => docs.map((d) => JSON.stringify(d)).join('\n') + '\n';
const ok = (result: CliResult): CliResult => {
  expect(result.code, result.stderr).toBe(0);
  return result;
};
const CPU = ['--backend', 'cpu', '--threads', '1'];

/** `index stats --json`, run in this process (runCliHere): the state a test reads after the process it checks. */
function statsOf(dir: string): Promise<{ documents: number; removed: number; segments: number }> {
  return runCliHere(['index', 'stats', dir, '--json']).then((r) => JSON.parse(ok(r).stdout));
}

describe('index create, add, query: a round trip', () => {
  it('adds the new documents, reports the near-duplicates with the document they matched, and answers queries', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    const a = documents('a', 200, 1);
    const fresh = documents('b', 50, 2);
    const dups = a.slice(0, 10).map((d, i) => ({ id: `dup${i}`, text: nearDuplicate(d.text, String(i)) }));
    const exact = { id: 'exact0', text: a[20].text };
    const inBatch = { id: 'batch0', text: nearDuplicate(fresh[0].text, 'x') }; // a near-duplicate of a document of the same run
    writeFileSync(join(dir, 'a.jsonl'), jsonl(a));
    writeFileSync(join(dir, 'b.jsonl'), jsonl([...fresh, ...dups, exact, inBatch]));

    const created = ok(await runCli(['index', 'create', index, join(dir, 'a.jsonl'), ...CPU]));
    expect(created.stdout).toMatch(/added\s+200/);
    expect(await statsOf(index)).toMatchObject({ documents: 200 });

    const matches = join(dir, 'matches.csv');
    const added = ok(
      await runCli([
        'index',
        'add',
        index,
        join(dir, 'b.jsonl'),
        '-o',
        join(dir, 'kept.jsonl'),
        '--matches',
        matches,
        '--report',
        join(dir, 'r.json'),
        ...CPU,
      ]),
    );
    expect(added.stdout).toMatch(/added\s+50/);
    expect(readFileSync(join(dir, 'kept.jsonl'), 'utf8')).toBe(jsonl(fresh));
    const rows = readFileSync(matches, 'utf8').trim().split('\n');
    expect(rows[0]).toBe('id,matched,estimate,exact');
    const pairs = rows
      .slice(1)
      .map((r) => r.split(',').slice(0, 2).join('→'))
      .sort();
    expect(pairs).toEqual([...dups.map((d, i) => `${d.id}→a${i}`), 'exact0→a20', 'batch0→b0'].sort());
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(report).toMatchObject({ documents: 62, added: 50, matched: 12, indexAfter: { documents: 250 } });

    // query: a file, and standard input; --top.
    const probe = [
      { id: 'q0', text: nearDuplicate(a[5].text, 'q') },
      { id: 'q1', text: documents('z', 1, 99)[0].text },
    ];
    const answered = ok(await runCli(['query', index, '-', ...CPU], jsonl(probe)));
    const lines = answered.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual(['q0', 'q1']);
    expect(lines[0].matches.map((m: { id: string }) => m.id)).toContain('a5');
    expect(lines[0].matches[0].similarity).toBeGreaterThan(0.7);
    expect(lines[1].matches).toEqual([]);
    const top = ok(await runCli(['query', index, '-', '--top', '3', ...CPU], jsonl(probe)));
    const tops = top.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).matches as { id: string; similarity: number }[]);
    expect(tops[0].length).toBeGreaterThanOrEqual(1);
    expect(tops[0].length).toBeLessThanOrEqual(3);
    expect(tops[0][0].id).toBe('a5');
    expect(tops[1].length).toBeLessThanOrEqual(3);
  });

  it('remove, stats and compact', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    const a = documents('a', 100, 3);
    writeFileSync(join(dir, 'a.jsonl'), jsonl(a.slice(0, 60)));
    writeFileSync(join(dir, 'a2.jsonl'), jsonl(a.slice(60)));
    ok(await runCli(['index', 'create', index, join(dir, 'a.jsonl'), ...CPU]));
    ok(await runCli(['index', 'add', index, join(dir, 'a2.jsonl'), ...CPU]));
    writeFileSync(join(dir, 'ids.txt'), 'a1\na2\nnot-there\n');
    const removed = ok(await runCli(['index', 'remove', index, '--ids', join(dir, 'ids.txt')]));
    expect(removed.stdout).toMatch(/removed 2 documents .*1 id not in the index/);
    expect(await statsOf(index)).toMatchObject({ documents: 98, removed: 2 });
    const gone = ok(await runCli(['query', index, '-', ...CPU], jsonl([a[1]])));
    expect(JSON.parse(gone.stdout).matches).toEqual([]);
    const human = ok(await runCli(['index', 'stats', index]));
    expect(human.stdout).toMatch(/documents\s+98/);
    ok(await runCli(['index', 'compact', index]));
    expect(await statsOf(index)).toMatchObject({ documents: 98, removed: 0, segments: 1 });
    const still = ok(await runCli(['query', index, '-', ...CPU], jsonl([a[70]])));
    expect(JSON.parse(still.stdout).matches.map((m: { id: string }) => m.id)).toEqual(['a70']);
  });
});

/** Spawns the CLI with its standard input open, for the test to write and end. */
function started(args: readonly string[]): { child: ChildProcess; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

/**
 * Waits until `writer` holds the index's lock (its writer.lock file, docs/index.md:
 * on-disk format). Polling with a second writer instead would race: one
 * holding the lock for a moment refuses the first.
 */
async function lockTaken(index: string, writer: ChildProcess): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if (writer.exitCode !== null) throw new Error(`the writer ended (${writer.exitCode}) before it took the lock`);
    if (existsSync(join(index, 'writer.lock')) && statSync(join(index, 'writer.lock')).size > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the writer did not take the lock within 30 s');
}

/** Waits until `writer` has begun copying standard input into `spool` (its --temp-directory). */
async function copyStarted(spool: string, writer: ChildProcess): Promise<void> {
  for (let waited = 0; waited < 30_000; waited += 50) {
    if (writer.exitCode !== null) throw new Error(`the writer ended (${writer.exitCode}) before it copied its input`);
    if (readdirSync(spool).length > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the writer did not copy its input within 30 s');
}

describe('one writer at a time', () => {
  it('a second writer is refused, naming the pid that holds the lock, while readers are served', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    const a = documents('a', 50, 4);
    writeFileSync(join(dir, 'a.jsonl'), jsonl(a));
    ok(await runCli(['index', 'create', index, join(dir, 'a.jsonl'), ...CPU]));
    writeFileSync(join(dir, 'none.txt'), '');
    // The first writer takes the lock before it reads its input: standard input held open keeps it there.
    const first = started(['index', 'add', index, '-', ...CPU]);
    await lockTaken(index, first.child);
    const refused = await runCli(['index', 'remove', index, '--ids', join(dir, 'none.txt')]);
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain(`pid ${first.child.pid}`);
    expect(refused?.stderr.trim().split('\n')).toHaveLength(1);
    const reader = ok(await runCli(['query', index, '-', ...CPU], jsonl([a[3]])));
    expect(JSON.parse(reader.stdout).matches[0].id).toBe('a3');
    first.child.stdin!.end(jsonl(documents('b', 5, 5)));
    ok(await first.done);
    expect(await statsOf(index)).toMatchObject({ documents: 55 });
  });
});

describe('SIGKILL in the middle of index add', () => {
  it('leaves an index that opens and answers as before the add or as after it (kill points from several seeds)', async () => {
    const dir = tempDir();
    const base = join(dir, 'base');
    const a = documents('a', 1500, 6);
    const b = [
      ...documents('b', 1500, 7),
      ...a.slice(0, 100).map((d, i) => ({ id: `dup${i}`, text: nearDuplicate(d.text, String(i)) })),
    ];
    writeFileSync(join(dir, 'a.jsonl'), jsonl(a));
    writeFileSync(join(dir, 'b.jsonl'), jsonl(b));
    const probe = join(dir, 'probe.jsonl');
    writeFileSync(
      probe,
      jsonl([...b.slice(0, 40), ...b.slice(-20), ...a.slice(200, 220)].map((d, i) => ({ id: `p${i}`, text: d.text }))),
    );
    ok(await runCli(['index', 'create', base, join(dir, 'a.jsonl'), ...CPU]));
    // The states read back in this process (runCliHere): 9 kill points would start 20 to 30 more processes.
    const answers = async (index: string): Promise<string> =>
      ok(await runCliHere(['query', index, probe, ...CPU])).stdout;
    const before = { stats: await statsOf(base), answers: await answers(base) };
    const complete = join(dir, 'complete');
    cpSync(base, complete, { recursive: true });
    const t0 = performance.now();
    ok(await runCli(['index', 'add', complete, join(dir, 'b.jsonl'), ...CPU]));
    const ms = performance.now() - t0;
    const after = { stats: await statsOf(complete), answers: await answers(complete) };
    expect(after.stats.documents).toBe(before.stats.documents + 1500);

    const seen = { before: 0, after: 0, killed: 0 };
    for (const seed of [1, 2, 3]) {
      const next = random(seed);
      for (let point = 0; point < 3; point++) {
        const index = join(dir, `kill-${seed}-${point}`);
        cpSync(base, index, { recursive: true });
        // Spread over the run (node's start-up included): most kills land while it works, some in its commit. Within
        // 80 % of the measured run, so that a run faster than that one (a machine's load falls) is still killed.
        const delay = 100 + next() * 0.8 * ms;
        const run = started(['index', 'add', index, join(dir, 'b.jsonl'), ...CPU]);
        const timer = setTimeout(() => run.child.kill('SIGKILL'), delay);
        await run.done;
        clearTimeout(timer);
        if (run.child.signalCode === 'SIGKILL') seen.killed++;
        const state = { stats: await statsOf(index), answers: await answers(index) };
        const which = state.stats.documents === before.stats.documents ? before : after;
        expect(state.stats, `seed ${seed}, kill after ${delay.toFixed(0)} ms`).toMatchObject({
          documents: which.stats.documents,
          removed: which.stats.removed,
        });
        expect(state.answers, `seed ${seed}, kill after ${delay.toFixed(0)} ms`).toBe(which.answers);
        seen[which === before ? 'before' : 'after']++;
        // The dead writer's lock is no obstacle: the add runs again (or, done already, is refused for its ids).
        if (which === before) {
          ok(await runCliHere(['index', 'add', index, join(dir, 'b.jsonl'), ...CPU]));
          expect(await answers(index)).toBe(after.answers);
        }
      }
    }
    console.log(
      `SIGKILL mid-add: ${seen.killed} of 9 runs killed (full run ${ms.toFixed(0)} ms); left the previous state ${seen.before}×, the new state ${seen.after}×`,
    );
    expect(seen.before + seen.after).toBe(9);
    expect(seen.killed).toBeGreaterThanOrEqual(6);
    expect(seen.before).toBeGreaterThan(0);
  }, 300_000);
});

describe('SIGTERM in the middle of index add', () => {
  it('exits 143 leaving no temporary beside the outputs, and an index in the previous or the new state', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(dir, 'a.jsonl'), jsonl(documents('a', 100, 11)));
    writeFileSync(join(dir, 'b.jsonl'), jsonl(documents('b', 3000, 12)));
    ok(await runCli(['index', 'create', index, join(dir, 'a.jsonl'), ...CPU]));
    const run = started([
      'index',
      'add',
      index,
      join(dir, 'b.jsonl'),
      '-o',
      join(out, 'kept.jsonl'),
      '--matches',
      join(out, 'm.csv'),
      ...CPU,
    ]);
    // Signal once it holds the lock (its handlers are installed by then: a fixed delay raced a loaded machine's start-up).
    await lockTaken(index, run.child).then(
      () => new Promise((r) => setTimeout(r, 300)),
      () => undefined,
    );
    run.child.kill('SIGTERM');
    const ended = await run.done;
    if (ended.code === 0) return; // finished before the signal on a fast machine: nothing to check
    expect(ended.code).toBe(143);
    expect(readdirSync(out)).toEqual([]);
    expect(readdirSync(index), 'a terminated writer removes its lock').not.toContain('writer.lock');
    expect([100, 3100]).toContain((await statsOf(index)).documents);
    ok(await runCli(['index', 'remove', index, '--ids', '-'], 'a0\n'));
  });

  it('while it reads (standard input held open): exits 143, the index unchanged and open to the next writer', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    const spool = join(dir, 'spool');
    mkdirSync(spool);
    writeFileSync(join(dir, 'a.jsonl'), jsonl(documents('a', 30, 13)));
    ok(await runCli(['index', 'create', index, join(dir, 'a.jsonl'), ...CPU]));
    // Without -o, standard input is read under the lock; with -o it is first copied to --temp-directory (issue 40,
    // item 6), before the lock: a signal in either leaves nothing behind.
    for (const outputs of [[], ['-o', join(dir, 'kept.jsonl'), '--temp-directory', spool]]) {
      const run = started(['index', 'add', index, '-', ...outputs, ...CPU]);
      run.child.stdin!.write(jsonl(documents('b', 10, 14)));
      if (outputs.length === 0) await lockTaken(index, run.child);
      else await copyStarted(spool, run.child);
      run.child.kill('SIGTERM');
      expect((await run.done).code).toBe(143);
      expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'index', 'spool']);
      expect(readdirSync(spool), 'the copy of standard input is removed').toEqual([]);
      expect(readdirSync(index), 'a terminated writer removes its lock').not.toContain('writer.lock');
      expect(await statsOf(index)).toMatchObject({ documents: 30 });
    }
    ok(await runCli(['index', 'remove', index, '--ids', '-'], 'a0\n'));
    expect(await statsOf(index)).toMatchObject({ documents: 29 });
  });
});

describe('damage and bad input', () => {
  it('a corrupt segment is detected and named', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    writeFileSync(join(dir, 'a.jsonl'), jsonl(documents('a', 100, 8)));
    ok(await runCli(['index', 'create', index, join(dir, 'a.jsonl'), ...CPU]));
    const files = readdirSync(index, { recursive: true, withFileTypes: true }).filter(
      (e) => e.isFile() && !/manifest|lock/i.test(e.name),
    );
    const largest = files.map((e) => join(e.parentPath, e.name)).sort((x, y) => statSync(y).size - statSync(x).size)[0];
    const bytes = readFileSync(largest);
    bytes[Math.floor(bytes.length / 2)] ^= 0x55;
    writeFileSync(largest, bytes);
    const result = await runCli(['query', index, '-', ...CPU], jsonl(documents('a', 1, 8)));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/corrupt/i);
    expect(result.stderr).toContain(largest.split('/').pop()!);
  });

  it('a malformed line is named by file:line and the index is left as it was', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    writeFileSync(join(dir, 'a.jsonl'), jsonl(documents('a', 20, 9)));
    ok(await runCliHere(['index', 'create', index, join(dir, 'a.jsonl'), ...CPU]));
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, jsonl(documents('b', 2, 10)) + '{"id":"b9","text":\n');
    const result = await runCli(['index', 'add', index, bad, ...CPU]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^gpudedup: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: `));
    expect(await statsOf(index)).toMatchObject({ documents: 20 });
    const again = join(dir, 'again.jsonl');
    writeFileSync(again, jsonl([{ id: 'new0', text: 'a new text' }, documents('a', 20, 9)[7]]));
    const twice = await runCliHere(['index', 'add', index, again, ...CPU]);
    expect(twice.code).toBe(1);
    expect(twice.stderr.startsWith(`gpudedup: ${again}:2: id "a7" is already in the index`), twice.stderr).toBe(true);
    expect(twice.stderr).not.toMatch(/of the add/);
    const fresh = join(dir, 'fresh');
    const create = await runCliHere(['index', 'create', fresh, bad, ...CPU]);
    expect(create.stderr).toContain(`${bad}:3: `);
    expect(existsSync(fresh)).toBe(false); // read before the directory becomes an index
    const missing = await runCliHere(['index', 'add', index, join(dir, 'nope.jsonl'), ...CPU]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.jsonl');
    const inside = await runCliHere(['index', 'add', index, bad, '--matches', join(index, 'm.csv'), ...CPU]);
    expect(inside.stderr).toMatch(/is inside the index/);
  });

  it('index create refuses an existing index, and other parameters are named', async () => {
    const dir = tempDir();
    const index = join(dir, 'index');
    ok(await runCliHere(['index', 'create', index, ...CPU]));
    const again = await runCliHere(['index', 'create', index, '-k', '64', ...CPU]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `gpudedup: ${index} is already an index: add to it with gpudedup index add, or choose a new directory\n`,
    );
    writeFileSync(join(dir, 'c.jsonl'), jsonl(documents('c', 5, 15)));
    const withCorpus = await runCliHere(['index', 'create', index, join(dir, 'c.jsonl'), ...CPU]);
    expect(withCorpus.stderr).toMatch(/is already an index/);
    const noCorpus = await runCliHere(['index', 'create', join(dir, 'x'), '-o', join(dir, 'k.jsonl'), ...CPU]);
    expect(noCorpus.stderr).toMatch(/give corpus files to add/);
    const slots = await runCliHere(['index', 'create', join(dir, 'other'), '--slot-bits', '8', ...CPU]);
    expect(slots.stderr).toMatch(/--slot-bits 8/);
  });
});
