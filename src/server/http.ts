/**
 * `gpudedup serve` on `node:http`: reads a request (its body bounded by
 * `maxBody`: a declared length over it is refused before a byte is kept, a
 * streamed one as soon as it passes it; the rest is dropped, not kept), checks
 * where it comes from (`Host` must name this server, 421; an `Origin` must be
 * allowed, 403, so a web page can neither write nor, by DNS rebinding, read;
 * a body must be JSON, 415), checks the bearer token, calls the
 * route (routes.ts) and writes its JSON reply. `stop()` answers 503 to what
 * comes from then on, refuses the writes still waiting, lets the write running
 * and the requests in progress finish, then stops listening and closes every
 * connection; the caller closes the index.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import {
  allowedHostEntry,
  allowedOriginEntry,
  bearerCheck,
  checkExposure,
  defaultHostNames,
  hostCheck,
} from './auth.js';
import { checkJsonContentType, RequestError } from './requests.js';
import { errorReply, findRoute, routeAt, type Reply, type RouteContext, type ServedIndex } from './routes.js';
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
  /**
   * More names `Host` may give (a proxy's, a DNS name), each `NAME` (any port) or `NAME:PORT`; the bound address (and
   * loopback's names on loopback) always.
   */
  readonly allowHosts?: readonly string[];
  /**
   * Origins (`https://app.example.com`) whose pages may call the server (CORS); a request with any other `Origin` is
   * refused.
   */
  readonly allowOrigins?: readonly string[];
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
    request.once(
      'close',
      () => request.complete || reject(new RequestError('the client closed the connection before the body ended')),
    );
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
const toJson = (body: unknown): string =>
  JSON.stringify(body, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)) + '\n';

/**
 * An allowed origin's reply carries CORS headers (none for any other: CORS stays closed); `Vary: Origin` once some are
 * allowed.
 */
function withCors(reply: Reply, origin: string | undefined, origins: ReadonlySet<string>): Reply {
  if (origins.size === 0) return reply;
  const headers: Record<string, string> = { Vary: 'Origin', ...reply.headers };
  if (origin !== undefined && origins.has(origin.toLowerCase())) {
    headers['Access-Control-Allow-Origin'] = origin;
    headers['Access-Control-Expose-Headers'] = 'Retry-After, WWW-Authenticate';
  }
  return { ...reply, headers };
}

function send(response: ServerResponse, reply: Reply, head: boolean, closing: boolean): void {
  const text = reply.body === undefined ? '' : toJson(reply.body);
  const headers: Record<string, string | number> = {
    ...(text === '' ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    'Content-Length': Buffer.byteLength(text),
    ...reply.headers,
  };
  if (closing) headers.Connection = 'close';
  response.writeHead(reply.status, headers);
  response.end(head ? undefined : text);
}

/** What a request must pass before its route: its `Host`, its `Origin`, its token. */
interface Gate {
  hostAllowed(host: string | undefined): boolean;
  readonly origins: ReadonlySet<string>;
  authorized(header: string | undefined): boolean;
}

/** A preflight's answer for an allowed origin: the route's method, the headers a client sends, cached 10 minutes. */
function preflight(url: string): Reply {
  const route = routeAt('OPTIONS', url.split('?')[0]);
  return {
    status: 204,
    body: undefined,
    headers: {
      'Access-Control-Allow-Methods': route.method === 'GET' ? 'GET, HEAD' : route.method,
      'Access-Control-Allow-Headers': 'Content-Type, Authorization',
      'Access-Control-Max-Age': '600',
    },
  };
}

/**
 * The reply to one request: host, origin, route, token, content type, body, handler; every failure becomes its status
 * and message.
 */
async function answer(
  request: IncomingMessage,
  context: RouteContext,
  options: ServerOptions,
  gate: Gate,
): Promise<Reply> {
  try {
    const method = request.method ?? 'GET';
    const url = request.url ?? '/';
    // /health answers any Host and Origin: a load balancer probes it by address, and it tells nothing.
    const health = (method === 'GET' || method === 'HEAD') && url.split('?')[0] === '/health';
    if (!health && !gate.hostAllowed(request.headers.host)) {
      throw new RequestError(
        `the Host header ${JSON.stringify(request.headers.host)} does not name this server: send the address it ` +
          `listens on, or start it with --allow-host NAME (a proxy's or a DNS name)`,
        421,
      );
    }
    const origin = request.headers.origin;
    if (!health && origin !== undefined && !gate.origins.has(origin.toLowerCase())) {
      throw new RequestError(
        `requests from web pages are refused (Origin ${JSON.stringify(origin)}): start the server with --allow-origin ` +
          `ORIGIN to let that origin's pages call it`,
        403,
      );
    }
    if (method === 'OPTIONS' && origin !== undefined) return preflight(url);
    const route = findRoute(method, url);
    if (route.authenticated && !gate.authorized(request.headers.authorization)) {
      const sent = request.headers.authorization !== undefined;
      const message = sent
        ? 'the bearer token sent is not this server\'s: send "Authorization: Bearer <token>" with the token the ' +
          'server was started with (GPUDEDUP_TOKEN or --token)'
        : 'a bearer token is needed: send "Authorization: Bearer <token>" with the token the server was started with ' +
          '(GPUDEDUP_TOKEN or --token)';
      throw new RequestError(message, 401, { 'WWW-Authenticate': 'Bearer' });
    }
    // Stopping: every route but /health (which says 'stopping') is refused; the requests already in progress finish.
    if (context.stopping && route.authenticated)
      throw new RequestError('the server is shutting down', 503, { 'Retry-After': '1', Connection: 'close' });
    if (route.body) checkJsonContentType(request.headers['content-type']);
    const body = route.body ? parseJson(await readBody(request, options.maxBody)) : undefined;
    return await route.handle(context, body);
  } catch (error) {
    return errorReply(error);
  }
}

/**
 * A client that asks before sending its body (Expect: 100-continue, as curl does for large ones) is refused before it
 * sends.
 */
function refuseLargeBodies(server: Server, maxBody: number): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (Number(request.headers['content-length']) > maxBody)
      send(response, errorReply(tooLarge(maxBody)), false, true); // nothing sent yet: close
    else {
      response.writeContinue();
      server.emit('request', request, response);
    }
  });
}

/** Binds the port, then sets the names Host may give, now that the port is known (before any request is read). */
function listen(
  server: Server,
  options: ServerOptions,
  gate: Gate,
  allowedHosts: ReturnType<typeof allowedHostEntry>[],
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const bound = server.address() as AddressInfo;
      const interfaces = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
      gate.hostAllowed = hostCheck(defaultHostNames(bound.address, interfaces), bound.port, allowedHosts);
      resolve();
    });
  });
}

/** Starts listening; resolves once the port is bound (rejects if it cannot be). */
export async function startServer(index: ServedIndex, options: ServerOptions): Promise<RunningServer> {
  checkExposure(options.host, options.token);
  const allowedHosts = (options.allowHosts ?? []).map(allowedHostEntry);
  const origins = new Set((options.allowOrigins ?? []).map(allowedOriginEntry));
  // hostAllowed is set once the port is bound (before any request is read): until then, no Host passes.
  const gate: Gate = {
    hostAllowed: () => false,
    origins,
    authorized: options.token === undefined ? () => true : bearerCheck(options.token),
  };
  const writes = new WriteQueue(options.queue);
  const context: RouteContext = { index, writes, maxQueries: Math.max(1, options.queue), stopping: false, queries: 0 };
  let inProgress = 0;
  let idle: (() => void) | undefined;

  const server: Server = createServer((request, response) => {
    inProgress++;
    response.once('close', () => {
      if (--inProgress === 0) idle?.();
    });
    void answer(request, context, options, gate).then((reply) => {
      send(response, withCors(reply, request.headers.origin, origins), request.method === 'HEAD', context.stopping);
      // A refused body is not kept: node drops what still comes, for at most DRAIN_MS (a client that writes
      // its whole body before reading would otherwise meet a reset instead of the 413), then the connection goes.
      if (!request.complete)
        response.once('finish', () => setTimeout(() => request.complete || request.socket.destroy(), DRAIN_MS).unref());
    });
  });
  refuseLargeBodies(server, options.maxBody);
  await listen(server, options, gate, allowedHosts);
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  // While it stops, the server still listens: a request that comes meanwhile is answered 503 (writes and queries,
  // with Retry-After; /health 'stopping'), as documented, not refused a connection. The port closes at the end.
  const stop = async (graceMs = 30_000): Promise<void> => {
    context.stopping = true;
    server.closeIdleConnections();
    await writes.close(); // the write running finishes (commits); the ones waiting are refused
    if (inProgress > 0) {
      await new Promise<void>((resolve) => {
        idle = resolve;
        setTimeout(resolve, graceMs).unref();
      });
    }
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  };
  return { url: `http://${shown}:${address.port}`, host: address.address, port: address.port, stop };
}
