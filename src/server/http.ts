/**
 * `gpudedup serve` on `node:http`: reads a request (its body bounded by
 * `maxBody`: a declared length over it is refused before a byte is kept, a
 * streamed one as soon as it passes it; the rest is dropped, not kept), checks the bearer token, calls the
 * route (routes.ts) and writes its JSON reply. `stop()` stops accepting,
 * refuses the writes still waiting, lets the write running and the requests
 * in progress finish, and closes every connection; the caller closes the index.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerCheck, checkExposure } from './auth.js';
import { RequestError } from './requests.js';
import { errorReply, findRoute, type Reply, type RouteContext, type ServedIndex } from './routes.js';
import { WriteQueue } from './writeQueue.js';

export interface ServerOptions {
  readonly host: string;
  /** 0: a free port, chosen by the system. */
  readonly port: number;
  /** The largest request body in bytes; past it, 413. */
  readonly maxBody: number;
  /** Writes waiting behind the running one, and queries in progress, each at most this many; past it, 503. */
  readonly queue: number;
  /** A bearer token every route but /health needs; required when `host` is not a loopback address. */
  readonly token?: string;
}

export interface RunningServer {
  /** `http://HOST:PORT`, the port the system chose for 0. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Stops accepting and finishes what is in progress (at most `graceMs` for requests other than the write running). */
  stop(graceMs?: number): Promise<void>;
}

export const SERVE_DEFAULTS = { host: '127.0.0.1', port: 8080, maxBody: 16 * 2 ** 20, queue: 64 } as const;

function tooLarge(maxBody: number): RequestError {
  return new RequestError(`the body is over the limit of ${maxBody} bytes (--max-body)`, 413);
}

/** How long the rest of a refused body is read (and dropped) so that its client, still sending, reads the 413. */
const DRAIN_MS = 1000;

/** The body's bytes, refused (413) as soon as they pass `maxBody`; what is past the limit is never kept. */
function readBody(request: IncomingMessage, maxBody: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (declared > maxBody) return Promise.reject(tooLarge(maxBody));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const onData = (chunk: Buffer): void => {
      length += chunk.length;
      if (length > maxBody) {
        request.off('data', onData);
        chunks.length = 0;
        reject(tooLarge(maxBody));
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.once('end', () => resolve(Buffer.concat(chunks, length)));
    request.once('error', reject);
    // A client gone before its body ended: settle, so nothing waits for a body that will not come.
    request.once('close', () => request.complete || reject(new RequestError('the client closed the connection before the body ended')));
  });
}

function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) throw new RequestError('the body is empty: send a JSON object');
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new RequestError(`the body is not valid JSON: ${(error as Error).message}`);
  }
}

/** JSON with 64-bit values (BigInt) as decimal strings, as the index's parameters may hold them. */
const toJson = (body: unknown): string => JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)) + '\n';

function send(response: ServerResponse, reply: Reply, head: boolean, closing: boolean): void {
  const text = toJson(reply.body);
  const headers: Record<string, string | number> = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...reply.headers };
  if (closing) headers.Connection = 'close';
  response.writeHead(reply.status, headers);
  response.end(head ? undefined : text);
}

/** The reply to one request: route, token, body, handler; every failure becomes its status and message. */
async function answer(request: IncomingMessage, context: RouteContext, options: ServerOptions, authorized: (header: string | undefined) => boolean): Promise<Reply> {
  try {
    const route = findRoute(request.method ?? 'GET', request.url ?? '/');
    if (route.authenticated && !authorized(request.headers.authorization)) {
      throw new RequestError('a bearer token is needed: send "Authorization: Bearer <token>" with the --token the server was started with', 401, { 'WWW-Authenticate': 'Bearer' });
    }
    if (context.stopping && route.body) throw new RequestError('the server is shutting down', 503, { 'Retry-After': '1', Connection: 'close' });
    const body = route.body ? parseJson(await readBody(request, options.maxBody)) : undefined;
    return await route.handle(context, body);
  } catch (error) {
    return errorReply(error);
  }
}

/** Starts listening; resolves once the port is bound (rejects if it cannot be). */
export async function startServer(index: ServedIndex, options: ServerOptions): Promise<RunningServer> {
  checkExposure(options.host, options.token);
  const authorized = options.token === undefined ? () => true : bearerCheck(options.token);
  const writes = new WriteQueue(options.queue);
  const context: RouteContext = { index, writes, maxQueries: Math.max(1, options.queue), stopping: false, queries: 0 };
  let inProgress = 0;
  let idle: (() => void) | undefined;

  const server: Server = createServer((request, response) => {
    inProgress++;
    response.once('close', () => {
      if (--inProgress === 0) idle?.();
    });
    void answer(request, context, options, authorized).then((reply) => {
      send(response, reply, request.method === 'HEAD', context.stopping);
      // A refused body is not kept: node drops what still comes, for at most DRAIN_MS (a client that writes
      // its whole body before reading would otherwise meet a reset instead of the 413), then the connection goes.
      if (!request.complete) response.once('finish', () => setTimeout(() => request.complete || request.socket.destroy(), DRAIN_MS).unref());
    });
  });
  // A client that asks before sending its body (Expect: 100-continue, as curl does for large ones) is refused before it sends.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (Number(request.headers['content-length']) > options.maxBody) send(response, errorReply(tooLarge(options.maxBody)), false, true); // nothing sent yet: close
    else {
      response.writeContinue();
      server.emit('request', request, response);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  const stop = async (graceMs = 30_000): Promise<void> => {
    context.stopping = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    await writes.close(); // the write running finishes (commits); the ones waiting are refused
    if (inProgress > 0) {
      await new Promise<void>((resolve) => {
        idle = resolve;
        setTimeout(resolve, graceMs).unref();
      });
    }
    server.closeAllConnections();
    await closed;
  };
  return { url: `http://${shown}:${address.port}`, host: address.address, port: address.port, stop };
}
