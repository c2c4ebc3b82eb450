/**
 * `gpudedup serve` as a user runs it (the built CLI, a real index directory,
 * 127.0.0.1, port 0): two clients adding and querying at once, the refusals
 * (400, 404, 405, 413, 503), the token, and SIGTERM in the middle of an add
 * (exit 0, the index consistent: the state before the add or after it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndex, openIndex } from '../../src/lshIndex/diskIndex.js';
import { rng } from '../support/reference.js';
import { CLI, runCli, tempDir } from '../support/cli.js';

interface Serving {
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts `gpudedup serve DIR --port 0 ARGS`; resolves once it prints its address. */
function serve(dir: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<Serving> {
  const child = spawn(process.execPath, [CLI, 'serve', dir, '--port', '0', '--threads', '1', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output); // the whole line: a chunk may end within the port
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output, exited });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

async function stop(serving: Serving, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  serving.child.kill(signal);
  return serving.exited;
}

/** `count` documents of 120 words from a vocabulary of 20,000: unrelated to each other. */
function documents(seed: number, count: number, prefix: string): { id: string; text: string }[] {
  const next = rng(seed);
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i}`,
    text: Array.from({ length: 120 }, () => `w${Math.floor(next() * 20_000)}`).join(' '),
  }));
}

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}

/** A POST on loopback with exactly these headers (`Host` included, which fetch sets itself): its status. */
function rawPost(url: string, headers: Record<string, string>, body: string): Promise<number> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: hostname,
        port,
        path: pathname,
        method: 'POST',
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function emptyIndex(): Promise<string> {
  const dir = join(tempDir(), 'index');
  await (await createIndex(dir, { backend: 'cpu', threads: 1 })).close();
  return dir;
}

async function documentsIn(dir: string, { writer = false } = {}): Promise<number> {
  const index = await openIndex(dir, { readOnly: !writer, backend: 'cpu', threads: 1 });
  try {
    return (await index.stats()).documents;
  } finally {
    await index.close();
  }
}

describe('gpudedup serve (real processes)', () => {
  it('two clients at once: one adds batches, the other adds and queries; no error, queries see whole batches in order', async () => {
    const dir = await emptyIndex();
    const serving = await serve(dir);
    let ownAdded = 0;
    try {
      expect(serving.output()).toMatch(/gpudedup serve: .*index \(0 documents\) on http:\/\/127\.0\.0\.1:\d+/);
      const batches = Array.from({ length: 8 }, (_, b) => documents(10 + b, 50, `a${b}-`));
      const probes = batches.flatMap((batch) => [batch[0].text, batch.at(-1)!.text]);
      let adding = true;
      const first = (async () => {
        for (const batch of batches)
          expect((await post(`${serving.url}/add`, { documents: batch })).body.added).toBe(batch.length);
        adding = false;
      })();
      const seen: number[] = [];
      const second = (async () => {
        const own = documents(99, 20, 'b');
        for (let round = 0; round < 300 && (adding || round < 2); round++) {
          if (round % 3 === 0 && own.length > 0) {
            const answer = await post(`${serving.url}/add`, { documents: own.splice(0, 5) });
            expect(answer.status).toBe(200);
            ownAdded += answer.body.added;
          }
          const answer = await post(`${serving.url}/query`, { texts: probes });
          expect(answer.status).toBe(200);
          const visible: boolean[] = answer.body.results.map((r: { matches: unknown[] }) => r.matches.length > 0);
          const whole = batches.map((_, b) => {
            expect(visible[2 * b], `batch ${b} half visible`).toBe(visible[2 * b + 1]);
            return visible[2 * b];
          });
          const count = whole.filter(Boolean).length;
          expect(whole, 'visible batches are a prefix').toEqual(batches.map((_, b) => b < count));
          seen.push(count);
        }
      })();
      await Promise.all([first, second]);
      expect(seen.at(-1)).toBe(batches.length);
      const stats = await (await fetch(`${serving.url}/stats`)).json();
      expect(stats.documents).toBe(8 * 50 + ownAdded);
    } finally {
      expect(await stop(serving)).toBe(0);
    }
    expect(await documentsIn(dir)).toBe(8 * 50 + ownAdded);
  });

  it('similarities to six decimals, as `gpudedup query` writes them: /query answers its lines, /add the same matches', async () => {
    const dir = await emptyIndex();
    const base = documents(7, 20, 'd');
    // Near-duplicates: a few words of each changed, so the estimates are not round numbers.
    const near = base.map((doc, i) => ({
      id: `near${i}`,
      text: doc.text
        .split(' ')
        .map((w, j) => (j % 40 === 0 && j / 40 <= i % 3 ? `x${j}` : w))
        .join(' '),
    }));
    const file = join(tempDir(), 'near.jsonl');
    writeFileSync(file, near.map((d) => JSON.stringify(d)).join('\n') + '\n');
    const serving = await serve(dir);
    try {
      expect((await post(`${serving.url}/add`, { documents: base })).status).toBe(200);
      const served = (await post(`${serving.url}/query`, { documents: near })).body.results;
      const cli = await runCli(['query', dir, file, '--threads', '1']);
      expect(cli.code, cli.stderr).toBe(0);
      const lines = cli.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.some((line) => line.matches.length > 0)).toBe(true);
      expect(served).toEqual(lines);
      for (const { matches } of served)
        for (const m of matches) expect(m.similarity).toBe(Math.round(m.similarity * 1e6) / 1e6);
      const added = (await post(`${serving.url}/add`, { documents: near })).body.decisions;
      expect(added.map((d: { id: string; matches: unknown }) => ({ id: d.id, matches: d.matches }))).toEqual(lines);
    } finally {
      expect(await stop(serving)).toBe(0);
    }
  });

  it('400, 404, 405, 413 and 503 (with Retry-After), each naming the problem', async () => {
    const dir = await emptyIndex();
    const serving = await serve(dir, ['--max-body', '4MiB', '--queue', '0']);
    try {
      expect(await post(`${serving.url}/query`, { texts: ['a', 'b', 3] })).toMatchObject({
        status: 400,
        body: { error: 'texts[2] must be a string' },
      });
      expect((await post(`${serving.url}/add`, '{"documents": [')).body.error).toMatch(/^the body is not valid JSON/);
      expect((await post(`${serving.url}/add`, { documents: [{ id: 'x' }] })).body.error).toBe(
        'documents[0].text is missing',
      );
      expect((await fetch(`${serving.url}/nothing`)).status).toBe(404);
      expect((await fetch(`${serving.url}/add`)).status).toBe(405);
      const large = await post(`${serving.url}/query`, { texts: ['x'.repeat(5 * 2 ** 20)] });
      expect(large).toMatchObject({
        status: 413,
        body: { error: `the body is over the limit of ${4 * 2 ** 20} bytes (--max-body)` },
      });
      // --queue 0: a write while another runs is refused. The first add is large enough to be running when the second comes.
      const big = post(`${serving.url}/add`, { documents: documents(5, 3000, 'big') });
      let refused: Awaited<ReturnType<typeof post>> | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const stats = await (await fetch(`${serving.url}/stats`)).json();
        if (stats.server.writesRunning === 1) refused = await post(`${serving.url}/remove`, { ids: ['big1'] });
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(refused, 'the add was seen running').toBeDefined();
      expect(refused!.status).toBe(503);
      expect(refused!.headers.get('retry-after')).toBe('1');
      expect((await big).body.added).toBe(3000);
    } finally {
      expect(await stop(serving)).toBe(0);
    }
  });

  it('a second writer is refused: serve on an index another writer holds exits 1 naming the lock', async () => {
    const dir = await emptyIndex();
    const holder = await openIndex(dir, { backend: 'cpu', threads: 1 });
    try {
      const refused = await runCli(['serve', dir, '--port', '0']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^gpudedup: index is locked by another writer: pid \d+/);
    } finally {
      await holder.close();
    }
  });

  it('beyond loopback without --token: refused before the index is opened; with --token: 401 without it, 200 with it', async () => {
    const dir = await emptyIndex();
    const refused = await runCli(['serve', dir, '--host', '0.0.0.0', '--port', '0']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^gpudedup: serve: --host 0\.0\.0\.0 reaches beyond this machine, so it needs --token T/,
    );
    const serving = await serve(dir, ['--token', 'a-long-secret']);
    try {
      expect((await post(`${serving.url}/query`, { texts: ['x'] })).status).toBe(401);
      expect(
        (await post(`${serving.url}/query`, { texts: ['x'] }, { Authorization: 'Bearer a-long-secreT' })).status,
      ).toBe(401);
      expect(
        (await post(`${serving.url}/query`, { texts: ['x'] }, { Authorization: 'Bearer a-long-secret' })).status,
      ).toBe(200);
      expect((await fetch(`${serving.url}/health`)).status).toBe(200);
    } finally {
      expect(await stop(serving)).toBe(0);
    }
  });

  it('the token from GPUDEDUP_TOKEN, said nowhere; --token still works but warns that ps shows it', async () => {
    const dir = await emptyIndex();
    const fromEnv = await serve(dir, [], { GPUDEDUP_TOKEN: 'an-env-secret' });
    try {
      expect((await post(`${fromEnv.url}/query`, { texts: ['x'] })).status).toBe(401);
      expect(
        (await post(`${fromEnv.url}/query`, { texts: ['x'] }, { Authorization: 'Bearer an-env-secret' })).status,
      ).toBe(200);
      expect(fromEnv.output()).not.toMatch(/--token on the command line/);
      expect(fromEnv.output()).not.toContain('an-env-secret');
    } finally {
      expect(await stop(fromEnv)).toBe(0);
    }
    const fromArgument = await serve(dir, ['--token', 'an-argument-secret'], { GPUDEDUP_TOKEN: 'an-env-secret' });
    try {
      expect(fromArgument.output()).toMatch(
        /^gpudedup serve: warning: --token on the command line is visible to every local user \(ps, \/proc\/PID\/cmdline\); set GPUDEDUP_TOKEN instead$/m,
      );
      expect(
        (await post(`${fromArgument.url}/query`, { texts: ['x'] }, { Authorization: 'Bearer an-argument-secret' }))
          .status,
      ).toBe(200);
    } finally {
      expect(await stop(fromArgument)).toBe(0);
    }
  });

  it('a web page cannot write (foreign Origin 403, foreign Host 421, text/plain 415); --allow-host and --allow-origin let the named ones in', async () => {
    const dir = await emptyIndex();
    const body = JSON.stringify({ documents: [{ id: 'a', text: 'the quick brown fox jumps over the lazy dog' }] });
    const serving = await serve(dir, [
      '--allow-host',
      'dedup.example.com',
      '--allow-origin',
      'https://app.example.com',
    ]);
    try {
      const own = new URL(serving.url).host;
      const json = 'application/json';
      // The request: a page's no-cors fetch, or curl with its headers.
      expect(
        await rawPost(
          `${serving.url}/add`,
          { Origin: 'https://evil.example', Host: 'evil.example', 'Content-Type': 'text/plain' },
          body,
        ),
      ).not.toBe(200);
      expect(
        await rawPost(`${serving.url}/add`, { Host: own, Origin: 'https://evil.example', 'Content-Type': json }, body),
      ).toBe(403);
      expect(await rawPost(`${serving.url}/add`, { Host: 'evil.example', 'Content-Type': json }, body)).toBe(421);
      expect(await rawPost(`${serving.url}/add`, { Host: own, 'Content-Type': 'text/plain' }, body)).toBe(415);
      expect(
        await rawPost(`${serving.url}/add`, { Host: own, 'Content-Type': 'application/x-www-form-urlencoded' }, body),
      ).toBe(415);
      expect(await documentsIn(dir)).toBe(0);
      expect(
        await rawPost(`${serving.url}/query`, { Host: 'dedup.example.com', 'Content-Type': json }, '{"texts": ["x"]}'),
      ).toBe(200);
      expect(
        await rawPost(
          `${serving.url}/add`,
          { Host: own, Origin: 'https://app.example.com', 'Content-Type': 'application/json; charset=utf-8' },
          body,
        ),
      ).toBe(200);
      expect((await fetch(`${serving.url}/health`, { headers: { Origin: 'https://evil.example' } })).status).toBe(200);
    } finally {
      expect(await stop(serving)).toBe(0);
    }
    expect(await documentsIn(dir)).toBe(1);
    const refused = await runCli(['serve', dir, '--port', '0', '--allow-origin', 'https://app.example.com/page']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--allow-origin takes an origin/);
  });

  it('--read-only: takes no lock (another process writes), follows its commits, answers 403 to writes', async () => {
    const dir = await emptyIndex();
    const serving = await serve(dir, ['--read-only']);
    try {
      expect(serving.output()).toMatch(/\(0 documents, read-only\) on /);
      const docs = documents(7, 30, 'w');
      const writer = await openIndex(dir, { backend: 'cpu', threads: 1 }); // the lock is free
      try {
        expect((await writer.add(docs)).added).toBe(30);
      } finally {
        await writer.close();
      }
      let seen = 0;
      for (let i = 0; i < 100 && seen === 0; i++) {
        seen = (await post(`${serving.url}/query`, { texts: [docs[29].text] })).body.results[0].matches.length;
        if (seen === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(seen, 'the commit was seen within 10 s').toBe(1);
      expect((await post(`${serving.url}/add`, { documents: documents(8, 1, 'x') })).status).toBe(403);
    } finally {
      expect(await stop(serving, 'SIGINT')).toBe(0);
    }
  });

  it('SIGTERM during an add: exit 0, and the index holds the state before the add or after it', async () => {
    const dir = await emptyIndex();
    const before = documents(1, 100, 'old');
    for (const seed of [1, 2, 3]) {
      const serving = await serve(dir);
      if (seed === 1) expect((await post(`${serving.url}/add`, { documents: before })).body.added).toBe(100);
      const count = await (await fetch(`${serving.url}/stats`)).json();
      const batch = documents(10 + seed, 3000, `new${seed}-`);
      const adding = post(`${serving.url}/add`, { documents: batch }).catch((error: Error) => error);
      // The signal lands while the add runs (reads answer meanwhile: the writer has its own thread), at three depths into it.
      let running = false;
      for (let i = 0; i < 500 && !running; i++) {
        running = (await (await fetch(`${serving.url}/stats`)).json()).server.writesRunning === 1;
        if (!running) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(running, 'the add was seen running').toBe(true);
      await new Promise((resolve) => setTimeout(resolve, [0, 150, 400][seed - 1]));
      serving.child.kill('SIGTERM');
      const answer = await adding;
      expect(await serving.exited, serving.output()).toBe(0);
      expect(serving.output()).toMatch(/SIGTERM: stopping/);
      const after = await documentsIn(dir);
      expect([count.documents, count.documents + batch.length]).toContain(after);
      if (!(answer instanceof Error) && answer.status === 200) {
        expect(answer.body.added).toBe(batch.length);
        expect(after).toBe(count.documents + batch.length);
      }
      expect(
        readdirSync(dir).filter((name) => name.startsWith('.')),
        'no temporary left',
      ).toEqual([]);
    }
  });

  it('a second SIGTERM during the add ends the process at once (143); the index holds the state before the add or after it', async () => {
    const dir = await emptyIndex();
    const serving = await serve(dir);
    const batch = documents(42, 3000, 'k');
    const adding = post(`${serving.url}/add`, { documents: batch }).catch((error: Error) => error);
    let running = false;
    for (let i = 0; i < 500 && !running; i++) {
      running = (await (await fetch(`${serving.url}/stats`)).json()).server.writesRunning === 1;
      if (!running) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(running, 'the add was seen running').toBe(true);
    serving.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 20));
    serving.child.kill('SIGTERM');
    expect(await serving.exited, serving.output()).toBe(143);
    await adding;
    expect([0, batch.length]).toContain(await documentsIn(dir, { writer: true })); // a writer takes the dead one's lock over
  });
});
