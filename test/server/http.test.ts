/**
 * The server in this process, against the test double (fakeIndex.ts): every
 * route, every refusal (400, 401, 404, 405, 413, 503), reads during a write
 * (the state before or after it, never an error), and stop() during a write.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../../src/server/http.js';
import { IndexIdError } from '../../src/lshIndex/errors.js';
import { errorReply } from '../../src/server/routes.js';
import { FakeIndex } from './fakeIndex.js';

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop(1000)));
});

async function serve(
  index = new FakeIndex(),
  options: Partial<ServerOptions> = {},
): Promise<{ server: RunningServer; index: FakeIndex }> {
  const server = await startServer(
    { reader: index, writer: index },
    { host: '127.0.0.1', port: 0, maxBody: 2 ** 20, queue: 4, ...options },
  );
  running.push(server);
  return { server, index };
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Record<string, unknown>;
}

/** A request as a client sends it: a body as JSON (`Content-Type: application/json` unless `headers` say otherwise). */
async function call(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const sent = body === undefined ? headers : { 'Content-Type': 'application/json', ...headers };
  const response = await fetch(server.url + path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

const A = 'the quick brown fox jumps over the lazy dog';
const A2 = 'the quick brown fox jumps over the lazy cat';
const B = 'lorem ipsum dolor sit amet consectetur adipiscing elit';

describe('serve: routes', () => {
  it('adds, queries (texts and documents, top), removes, and reports stats and health', async () => {
    const { server } = await serve();
    expect((await call(server, 'GET', '/health')).body).toEqual({ status: 'ok' });
    const added = await call(server, 'POST', '/add', {
      documents: [
        { id: 'a', text: A },
        { id: 'a2', text: A2 },
        { id: 'b', text: B },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body.added).toBe(2);
    expect(added.body.matched).toBe(1);
    expect(added.body.decisions).toEqual([
      { id: 'a', added: true, matches: [] },
      { id: 'a2', added: false, matches: [{ id: 'a', similarity: 0.777778 }] }, // 7/9 to six decimals, as the CLI writes it
      { id: 'b', added: true, matches: [] },
    ]);
    const queried = await call(server, 'POST', '/query', { texts: [A2, 'nothing like it', B] });
    expect(queried.status).toBe(200);
    expect(queried.body).toEqual({
      results: [
        { matches: [{ id: 'a', similarity: 0.777778 }] },
        { matches: [] },
        { matches: [{ id: 'b', similarity: 1 }] },
      ],
    });
    const byDocument = await call(server, 'POST', '/query', { documents: [{ id: 'q1', text: B }], top: 2 });
    expect(byDocument.body).toEqual({
      results: [
        {
          id: 'q1',
          matches: [
            { id: 'b', similarity: 1 },
            { id: 'a', similarity: 0 },
          ],
        },
      ],
    });
    const all = await call(server, 'POST', '/add', { documents: [{ id: 'b2', text: B }], all: true });
    expect(all.body).toMatchObject({ added: 1, matched: 1 });
    expect((await call(server, 'POST', '/remove', { ids: ['b', 'b2', 'unknown'] })).body).toEqual({ removed: 2 });
    const stats = await call(server, 'GET', '/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      documents: 1,
      parameters: { threshold: 0.5, seed: '42' },
      server: { writesQueued: 0, queriesInProgress: 0 },
    });
    expect(stats.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('404 for an unknown route, 405 (with Allow) for a wrong method', async () => {
    const { server } = await serve();
    const missing = await call(server, 'GET', '/nothing');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(
      /^no route GET \/nothing \(routes: POST \/query, POST \/add, POST \/remove, GET \/stats, GET \/health\)/,
    );
    const wrong = await call(server, 'GET', '/query');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(wrong.body.error).toBe('/query takes POST, not GET');
    expect((await call(server, 'DELETE', '/stats')).headers.get('allow')).toBe('GET, HEAD');
    expect((await call(server, 'HEAD', '/health')).status).toBe(200);
  });

  it('400 naming the problem: bad JSON, an empty body, a wrong type; the index untouched', async () => {
    const { server, index } = await serve();
    const bad = await call(server, 'POST', '/query', '{"texts": [');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^the body is not valid JSON: /);
    expect((await call(server, 'POST', '/add', '')).body.error).toBe('the body is empty: send a JSON object');
    const wrongType = await call(server, 'POST', '/query', { texts: ['a', 'b', 3] });
    expect(wrongType).toMatchObject({ status: 400, body: { error: 'texts[2] must be a string' } });
    expect(
      (
        await call(server, 'POST', '/add', {
          documents: [
            { id: 'x', text: 'y' },
            { id: 'x', text: 'z' },
          ],
        })
      ).status,
    ).toBe(400);
    expect(index.adds).toBe(0);
  });

  it("an index's refusal of an id already indexed is a 409 with its message; an index failure a 500; the server goes on", async () => {
    const { server, index } = await serve();
    await call(server, 'POST', '/add', { documents: [{ id: 'a', text: A }] });
    const again = await call(server, 'POST', '/add', { documents: [{ id: 'a', text: B }] });
    expect(again).toMatchObject({
      status: 409,
      body: {
        error:
          'id "a" is already in the index (document 1 of the add): ids are unique in an index; remove it first to replace it',
      },
    });
    await index.close();
    expect(await call(server, 'POST', '/query', { texts: [A] })).toMatchObject({
      status: 500,
      body: { error: 'the index is closed' },
    });
    expect((await call(server, 'GET', '/health')).status).toBe(200);
  });
});

describe('serve: errorReply', () => {
  it('tells an id refusal by its class and problem, not its words: indexed 409, empty or repeated 400; a RangeError with the same words is a 500', () => {
    expect(errorReply(new IndexIdError('indexed', 'a', [3])).status).toBe(409);
    expect(errorReply(new IndexIdError('repeated', 'a', [1, 2])).status).toBe(400);
    expect(errorReply(new IndexIdError('empty', '', [1]))).toEqual({
      status: 400,
      body: { error: 'document 1 of the add has an empty id' },
    });
    expect(errorReply(new RangeError('id "a" is already in the index (document 1 of the add)')).status).toBe(500);
  });
});

describe('serve: health', () => {
  it("503 'failing' with the reason when the index cannot work (its writer gone)", async () => {
    const index = new FakeIndex();
    let problem: string | undefined;
    const server = await startServer(
      { reader: index, writer: index, problem: () => problem },
      { host: '127.0.0.1', port: 0, maxBody: 2 ** 20, queue: 4 },
    );
    running.push(server);
    expect((await call(server, 'GET', '/health')).body).toEqual({ status: 'ok' });
    problem = 'the index writer stopped (exit code 1)';
    expect(await call(server, 'GET', '/health')).toMatchObject({
      status: 503,
      body: { status: 'failing', error: problem },
    });
  });
});

describe('serve: read-only', () => {
  it('without a writer, /add and /remove answer 403 and queries answer', async () => {
    const index = new FakeIndex();
    const server = await startServer({ reader: index }, { host: '127.0.0.1', port: 0, maxBody: 2 ** 20, queue: 4 });
    running.push(server);
    for (const [path, body] of [
      ['/add', { documents: [{ id: 'a', text: A }] }],
      ['/remove', { ids: ['a'] }],
    ] as const) {
      const answer = await call(server, 'POST', path, body);
      expect(answer.status).toBe(403);
      expect(answer.body.error).toMatch(/^this server is read-only \(--read-only\)/);
    }
    expect((await call(server, 'POST', '/query', { texts: [A] })).body).toEqual({ results: [{ matches: [] }] });
    expect(index.adds).toBe(0);
  });
});

describe('serve: limits', () => {
  it('413 for a declared body over --max-body (the client, still sending, reads it); the server goes on', async () => {
    const { server } = await serve(undefined, { maxBody: 2 ** 20 });
    for (const size of [2 ** 20, 6 * 2 ** 20]) {
      const answer = await call(server, 'POST', '/query', JSON.stringify({ texts: ['x'.repeat(size)] }));
      expect(answer.status).toBe(413);
      expect(answer.body.error).toBe(`the body is over the limit of ${2 ** 20} bytes (--max-body)`);
    }
    expect((await call(server, 'POST', '/query', { texts: ['x'] })).status).toBe(200);
  });

  it('413 before the body is sent to a client that asks first (Expect: 100-continue, as curl does)', async () => {
    const { server } = await serve(undefined, { maxBody: 2 ** 20 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        server.url + '/add',
        { method: 'POST', headers: { Expect: '100-continue', 'Content-Length': String(2 ** 21) } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      req.on('continue', () => reject(new Error('the server asked for the body')));
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(413);
  });

  it('413 for a streamed (chunked) body as soon as it passes the limit: the server stops reading', async () => {
    const { server } = await serve(undefined, { maxBody: 2 ** 20 });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const result = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = httpRequest(
        server.url + '/add',
        { method: 'POST', headers: { 'Content-Type': 'application/json' } },
        (response) => {
          answered = true;
          response.resume();
          response.on('end', () => resolve({ status: response.statusCode ?? 0, sent }));
        },
      );
      req.on('error', (error) => (answered ? undefined : reject(error)));
      req.write('{"documents": [{"id": "a", "text": "');
      // At most 8 MiB: far past the limit, bounded if the server kept reading.
      const pump = (): void => {
        if (answered || sent > 8 * 2 ** 20) return void req.end();
        sent += chunk.length;
        if (req.write(chunk)) setImmediate(pump);
        else req.once('drain', pump);
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(8 * 2 ** 20);
  });

  it('a client that leaves in the middle of its body: the server goes on, and stops without waiting for it', async () => {
    const { server } = await serve();
    running.splice(0);
    await new Promise<void>((resolve) => {
      const req = httpRequest(server.url + '/add', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': '1000' },
      });
      req.on('error', () => resolve());
      req.write('{"documents": [', () => setTimeout(() => req.destroy(), 50));
      req.on('close', () => resolve());
    });
    expect((await call(server, 'GET', '/health')).status).toBe(200);
    const started = performance.now();
    await server.stop(10_000);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('503 with Retry-After once --queue writes wait behind the one running', async () => {
    const { server, index } = await serve(undefined, { queue: 1 });
    let release!: () => void;
    index.gate = new Promise((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (index.onGate = resolve));
    const first = call(server, 'POST', '/add', { documents: [{ id: 'a', text: A }] });
    await reached;
    const second = call(server, 'POST', '/add', { documents: [{ id: 'b', text: B }] }); // waits: the queue holds one
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = await call(server, 'POST', '/remove', { ids: ['a'] });
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('1');
    expect(third.body.error).toMatch(/too many writes waiting/);
    index.gate = undefined;
    release();
    expect((await first).status).toBe(200);
    expect((await second).body).toMatchObject({ added: 1 });
  });
});

describe('serve: reads during a write', () => {
  it('queries answer while an add is held open, with the state before it; after it, the state after', async () => {
    const { server, index } = await serve();
    await call(server, 'POST', '/add', { documents: [{ id: 'a', text: A }] });
    let release!: () => void;
    index.gate = new Promise((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (index.onGate = resolve));
    const adding = call(server, 'POST', '/add', { documents: [{ id: 'b', text: B }] });
    await reached;
    const during = await call(server, 'POST', '/query', { texts: [B] });
    expect(during).toMatchObject({ status: 200, body: { results: [{ matches: [] }] } });
    expect((await call(server, 'GET', '/stats')).body).toMatchObject({ documents: 1, server: { writesRunning: 1 } });
    index.gate = undefined;
    release();
    await adding;
    expect((await call(server, 'POST', '/query', { texts: [B] })).body).toEqual({
      results: [{ matches: [{ id: 'b', similarity: 1 }] }],
    });
  });

  it('stop() during an add: the add finishes and is answered, writes waiting get 503, new requests get 503 until it has stopped', async () => {
    const { server, index } = await serve();
    running.splice(0);
    let release!: () => void;
    index.gate = new Promise((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (index.onGate = resolve));
    const adding = call(server, 'POST', '/add', { documents: [{ id: 'a', text: A }] });
    await reached;
    const waiting = call(server, 'POST', '/add', { documents: [{ id: 'b', text: B }] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const stopped = server.stop(5000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // A new connection while it stops is answered, as the README says (503 and why), not refused.
    const health = await call(server, 'GET', '/health');
    expect(health).toMatchObject({ status: 503, body: { status: 'stopping' } });
    for (const [method, path, body] of [
      ['POST', '/add', { documents: [{ id: 'c', text: B }] }],
      ['POST', '/query', { texts: [A] }],
      ['GET', '/stats', undefined],
    ] as const) {
      const refused = await call(server, method, path, body);
      expect(refused, path).toMatchObject({ status: 503, body: { error: 'the server is shutting down' } });
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.headers.get('connection')).toBe('close');
    }
    release();
    expect((await adding).body).toMatchObject({ added: 1 });
    expect((await waiting).status).toBe(503);
    await stopped;
    await expect(fetch(server.url + '/health')).rejects.toThrow(); // stopped: the port is closed
    expect(index.adds).toBe(1);
  });
});

describe('serve: the token', () => {
  it('refuses to bind beyond loopback without a token', async () => {
    await expect(
      startServer(
        { reader: new FakeIndex(), writer: new FakeIndex() },
        { host: '0.0.0.0', port: 0, maxBody: 2 ** 20, queue: 1 },
      ),
    ).rejects.toThrow(/--host 0\.0\.0\.0 reaches beyond this machine, so it needs --token/);
  });

  it('with a token: 401 without it or with a wrong one (the same length too), 200 with it; health needs none', async () => {
    const { server } = await serve(undefined, { token: 's3cret-token' });
    for (const authorization of [
      undefined,
      'Bearer wrong',
      'Bearer s3cret-tokeN',
      'Basic s3cret-token',
      'Bearer ',
      's3cret-token',
    ]) {
      const answer = await call(
        server,
        'POST',
        '/query',
        { texts: ['x'] },
        authorization === undefined ? {} : { Authorization: authorization },
      );
      expect(answer.status, String(authorization)).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    expect((await call(server, 'GET', '/stats', undefined, { Authorization: 'bearer s3cret-token' })).status).toBe(200);
    expect(
      (await call(server, 'POST', '/query', { texts: ['x'] }, { Authorization: 'Bearer s3cret-token' })).status,
    ).toBe(200);
    expect((await call(server, 'GET', '/health')).status).toBe(200);
  });
});

/** A request to the server on loopback with exactly these headers (`Host` included: fetch would set its own), its body as given. */
function raw(
  server: RunningServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer & { raw: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { ...headers, ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const headerList = new Headers();
          for (const [name, value] of Object.entries(response.headers))
            if (typeof value === 'string') headerList.set(name, value);
          resolve({
            status: response.statusCode ?? 0,
            headers: headerList,
            body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
            raw: response.headers,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('serve: where requests come from (issue 31)', () => {
  const addBody = JSON.stringify({ documents: [{ id: 'a', text: A }] });

  it("refuses a web page's write: foreign Origin and Host with a text/plain body (the no-cors fetch), the index untouched", async () => {
    const { server, index } = await serve();
    const answer = await raw(
      server,
      'POST',
      '/add',
      { Origin: 'https://evil.example', Host: 'evil.example', 'Content-Type': 'text/plain' },
      addBody,
    );
    expect(answer.status).not.toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(index.adds).toBe(0);
  });

  it('421 for a Host that is not the address listened on: writes and reads (DNS rebinding reads /query and /stats)', async () => {
    const { server, index } = await serve();
    const json = { 'Content-Type': 'application/json' };
    for (const host of [
      'evil.example',
      `evil.example:${server.port}`,
      `127.0.0.1:${server.port + 1 > 65535 ? 1 : server.port + 1}`,
      '10.0.0.1',
      'localhost.evil.example',
      'evil.example@127.0.0.1',
    ]) {
      const added = await raw(server, 'POST', '/add', { ...json, Host: host }, addBody);
      expect(added.status, host).toBe(421);
      expect(added.body.error).toMatch(/does not name this server: .*--allow-host NAME/);
      expect(
        (await raw(server, 'POST', '/query', { ...json, Host: host }, JSON.stringify({ texts: [A] }))).status,
        host,
      ).toBe(421);
      expect((await raw(server, 'GET', '/stats', { Host: host })).status, host).toBe(421);
    }
    expect(index.adds).toBe(0);
  });

  it('403 for a request with an Origin (a web page), whatever the route; no CORS header', async () => {
    const { server, index } = await serve();
    const host = `127.0.0.1:${server.port}`;
    for (const origin of ['https://evil.example', `http://127.0.0.1:${server.port}`, 'null']) {
      const added = await raw(
        server,
        'POST',
        '/add',
        { Host: host, Origin: origin, 'Content-Type': 'application/json' },
        addBody,
      );
      expect(added.status, origin).toBe(403);
      expect(added.body.error).toMatch(/^requests from web pages are refused .*--allow-origin ORIGIN/);
      expect(added.headers.get('access-control-allow-origin')).toBeNull();
      expect((await raw(server, 'GET', '/stats', { Host: host, Origin: origin })).status).toBe(403);
      expect(
        (await raw(server, 'OPTIONS', '/add', { Host: host, Origin: origin, 'Access-Control-Request-Method': 'POST' }))
          .status,
      ).toBe(403);
    }
    expect(index.adds).toBe(0);
  });

  it('415 for a body that is not sent as JSON: text/plain, a form, none', async () => {
    const { server, index } = await serve();
    const host = `127.0.0.1:${server.port}`;
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      undefined,
    ]) {
      const answer = await raw(
        server,
        'POST',
        '/add',
        { Host: host, ...(type === undefined ? {} : { 'Content-Type': type }) },
        addBody,
      );
      expect(answer.status, String(type)).toBe(415);
      expect(answer.body.error).toMatch(/^the body must be sent as "Content-Type: application\/json"/);
    }
    expect(index.adds).toBe(0);
  });

  it('accepts what a client on this machine sends: the address, localhost or [::1] with the port, JSON with a charset, no Origin; /health from anywhere', async () => {
    const { server, index } = await serve();
    let n = 0;
    for (const host of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      `LocalHost.:${server.port}`,
      `[::1]:${server.port}`,
    ]) {
      for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
        const answer = await raw(
          server,
          'POST',
          '/add',
          { Host: host, 'Content-Type': type },
          JSON.stringify({ documents: [{ id: `d${n++}`, text: `${B} ${n}` }] }),
        );
        expect(answer.status, `${host} ${type}`).toBe(200);
      }
      expect((await raw(server, 'GET', '/stats', { Host: host })).status).toBe(200);
    }
    expect(index.adds).toBe(12);
    expect(
      (await raw(server, 'GET', '/health', { Host: 'evil.example', Origin: 'https://evil.example' })).body,
    ).toEqual({ status: 'ok' });
  });

  it("--allow-host: a proxy's name (any port) or NAME:PORT (that port) is accepted; others still 421", async () => {
    const { server } = await serve(undefined, { allowHosts: ['dedup.example.com', 'proxy.local:8443'] });
    const send = (host: string) =>
      raw(server, 'POST', '/query', { Host: host, 'Content-Type': 'application/json' }, JSON.stringify({ texts: [A] }));
    for (const host of ['dedup.example.com', 'DEDUP.example.com:443', 'proxy.local:8443', `127.0.0.1:${server.port}`])
      expect((await send(host)).status, host).toBe(200);
    for (const host of ['proxy.local:9000', 'proxy.local', 'evil.example', 'sub.dedup.example.com'])
      expect((await send(host)).status, host).toBe(421);
  });

  it("--allow-origin: that origin's pages are answered with CORS headers (and their preflight); other origins 403", async () => {
    const { server, index } = await serve(undefined, { allowOrigins: ['https://app.example.com'] });
    const host = `127.0.0.1:${server.port}`;
    const pre = await raw(server, 'OPTIONS', '/add', {
      Host: host,
      Origin: 'https://app.example.com',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type',
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
    const added = await raw(
      server,
      'POST',
      '/add',
      { Host: host, Origin: 'https://app.example.com', 'Content-Type': 'application/json' },
      addBody,
    );
    expect(added.status).toBe(200);
    expect(added.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(added.headers.get('vary')).toBe('Origin');
    const other = await raw(
      server,
      'POST',
      '/add',
      { Host: host, Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      JSON.stringify({ documents: [{ id: 'b', text: B }] }),
    );
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // An allowed origin still sends JSON: its text/plain body is refused.
    expect(
      (
        await raw(
          server,
          'POST',
          '/add',
          { Host: host, Origin: 'https://app.example.com', 'Content-Type': 'text/plain' },
          addBody,
        )
      ).status,
    ).toBe(415);
    expect(index.adds).toBe(1);
  });

  it('refuses a bad --allow-host or --allow-origin before it listens', async () => {
    const index = new FakeIndex();
    const options = { host: '127.0.0.1', port: 0, maxBody: 2 ** 20, queue: 1 };
    await expect(
      startServer({ reader: index }, { ...options, allowOrigins: ['https://app.example.com/path'] }),
    ).rejects.toThrow(/--allow-origin takes an origin/);
    await expect(startServer({ reader: index }, { ...options, allowOrigins: ['*'] })).rejects.toThrow(
      /--allow-origin takes an origin/,
    );
    await expect(startServer({ reader: index }, { ...options, allowHosts: ['a b'] })).rejects.toThrow(
      /--allow-host takes a host name/,
    );
  });
});
