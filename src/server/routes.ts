/**
 * What each route of `gpudedup serve` does, as functions over the index's
 * face (`DedupIndex`): no HTTP here, so they run against any index (the
 * on-disk one, the in-memory one, a test double). http.ts reads requests,
 * checks where it comes from, limits and the token, and calls `route(...)`.
 *
 * Reads (query, stats) go straight to the index and never wait on a write;
 * writes (add, remove) go through one `WriteQueue`. A read that overlaps a
 * write sees the state before it or after it: the index guarantees that
 * (its readers see a committed state), the server adds no locking of its own.
 */
import { IndexIdError } from '../lshIndex/errors.js';
import { shownMatches } from '../lshIndex/queryLine.js';
import type { DedupIndex } from '../lshIndex/types.js';
import { parseAddRequest, parseQueryRequest, parseRemoveRequest, RequestError } from './requests.js';
import { RETRY_AFTER_SECONDS, type WriteQueue } from './writeQueue.js';

/** The index as the server sees it: one for reads, one for writes (often the same object). */
export interface ServedIndex {
  /** Answers queries and stats. */
  readonly reader: DedupIndex;
  /** Takes adds and removes, one at a time; none: the server is read-only (403). */
  readonly writer?: DedupIndex;
  /** After each write has committed: e.g. a separate reader picks up the new state. */
  afterWrite?(): Promise<void>;
  /** What keeps the index from working (its writer's thread gone), for /health; undefined when all is well. */
  problem?(): string | undefined;
}

export interface RouteContext {
  readonly index: ServedIndex;
  readonly writes: WriteQueue;
  /** The most queries in progress at once; past it, 503. */
  readonly maxQueries: number;
  /** Set once the server is stopping: health says so, nothing new is taken. */
  stopping: boolean;
  /** Queries in progress (counted by `route`). */
  queries: number;
}

export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

interface Route {
  readonly method: 'GET' | 'POST';
  /** Whether the route reads a JSON body. */
  readonly body: boolean;
  /** Whether a token, when the server has one, is needed (health answers anyone: load balancers probe it). */
  readonly authenticated: boolean;
  handle(context: RouteContext, body: unknown): Promise<Reply>;
}

const ok = (body: unknown): Reply => ({ status: 200, body });

async function query(context: RouteContext, body: unknown): Promise<Reply> {
  const request = parseQueryRequest(body);
  if (context.queries >= context.maxQueries) {
    throw new RequestError(`too many queries in progress (${context.queries}): retry later`, 503, {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  }
  context.queries++;
  try {
    const results = await context.index.reader.query(request.texts, {
      top: request.top,
      containment: request.containment,
      rerank: request.rerank,
    });
    const ids = request.ids;
    return ok({
      results: results.map((result, i) =>
        ids ? { id: ids[i], matches: shownMatches(result.matches) } : { matches: shownMatches(result.matches) },
      ),
    });
  } finally {
    context.queries--;
  }
}

/** A write through the queue; the reader is brought up to date before the reply, so a client reads its own write. */
async function write<T>(context: RouteContext, task: (writer: DedupIndex) => Promise<T>): Promise<T> {
  const { index } = context;
  const writer = index.writer;
  if (writer === undefined)
    throw new RequestError("this server is read-only (--read-only): add and remove through the index's writer", 403);
  return context.writes.run(async () => {
    const result = await task(writer);
    await index.afterWrite?.();
    return result;
  });
}

async function add(context: RouteContext, body: unknown): Promise<Reply> {
  const request = parseAddRequest(body);
  const result = await write(context, (writer) => writer.add(request.documents, { all: request.all }));
  // Similarities to six decimals, as the CLI writes them (`index add -o`, `query`).
  const decisions = result.decisions.map((d) => ({ id: d.id, added: d.added, matches: shownMatches(d.matches) }));
  return ok({ added: result.added, matched: result.matched, decisions });
}

async function remove(context: RouteContext, body: unknown): Promise<Reply> {
  const request = parseRemoveRequest(body);
  return ok(await write(context, (writer) => writer.remove(request.ids)));
}

async function stats(context: RouteContext): Promise<Reply> {
  const stats = await context.index.reader.stats();
  return ok({
    ...stats,
    server: {
      writesRunning: context.writes.busy ? 1 : 0,
      writesQueued: context.writes.queued,
      queriesInProgress: context.queries,
    },
  });
}

async function health(context: RouteContext): Promise<Reply> {
  if (context.stopping) return { status: 503, body: { status: 'stopping' } };
  const problem = context.index.problem?.();
  return problem === undefined ? ok({ status: 'ok' }) : { status: 503, body: { status: 'failing', error: problem } };
}

const ROUTES: Readonly<Record<string, Route>> = {
  '/query': { method: 'POST', body: true, authenticated: true, handle: query },
  '/add': { method: 'POST', body: true, authenticated: true, handle: add },
  '/remove': { method: 'POST', body: true, authenticated: true, handle: remove },
  '/stats': { method: 'GET', body: false, authenticated: true, handle: stats },
  '/health': { method: 'GET', body: false, authenticated: false, handle: health },
};

export const ROUTE_LIST = Object.entries(ROUTES).map(([path, r]) => `${r.method} ${path}`);

/** The route at `path` whatever the method (a CORS preflight asks of it), or a 404 naming what exists. */
export function routeAt(method: string, path: string): Route {
  const route = Object.hasOwn(ROUTES, path) ? ROUTES[path] : undefined;
  if (!route) throw new RequestError(`no route ${method} ${path} (routes: ${ROUTE_LIST.join(', ')})`, 404);
  return route;
}

/** The route of `method` `path` (a query string ignored), or a 404 / 405 naming what exists. */
export function findRoute(method: string, url: string): Route {
  const path = url.split('?')[0];
  const route = routeAt(method, path);
  const allowed = route.method === 'GET' ? 'GET, HEAD' : route.method;
  if (method !== route.method && !(method === 'HEAD' && route.method === 'GET')) {
    throw new RequestError(`${path} takes ${route.method}, not ${method}`, 405, { Allow: allowed });
  }
  return route;
}

/**
 * The reply to anything a route threw: a `RequestError` is the client's
 * (its status and message); an id already indexed 409 and another refused
 * id 400 (IndexIdError, by its problem); a request with other parameters
 * than the index's, or a query the index cannot answer, 400
 * (IndexParameterError, QueryOptionError); anything else the server's
 * (500, its message).
 */
export function errorReply(error: unknown): Reply {
  if (error instanceof RequestError)
    return { status: error.status, body: { error: error.message }, headers: error.headers };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof IndexIdError)
    return { status: error.problem === 'indexed' ? 409 : 400, body: { error: message } };
  // By name: the writer's thread (writerThread.ts) sends it back as an Error named so.
  if (error instanceof Error && (error.name === 'IndexParameterError' || error.name === 'QueryOptionError'))
    return { status: 400, body: { error: message } };
  return { status: 500, body: { error: message } };
}

export type { Route };
