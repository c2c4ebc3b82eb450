/**
 * The bodies `gpudedup serve` accepts, checked: each function takes the parsed
 * JSON and returns the typed request, or throws a `RequestError` whose message
 * names the field and what is wrong with it (`texts[2] must be a string`), so a
 * client learns the problem from the 400 alone. Pure: no I/O, any index.
 */
import type { IndexDocument } from '../lshIndex/types.js';
import { OPTIONS } from '../options.js';

/** A client's mistake: answered with `status` and the message. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

export interface QueryRequest {
  readonly texts: readonly string[];
  /** Present when the body gave documents: each result then carries its document's id. */
  readonly ids?: readonly string[];
  readonly top?: number;
  readonly containment?: number;
  readonly rerank?: 'exact' | 'estimate';
}

export interface AddRequest {
  readonly documents: readonly IndexDocument[];
  readonly all: boolean;
}

export interface RemoveRequest {
  readonly ids: readonly string[];
}

type Body = Record<string, unknown>;

function objectBody(body: unknown, fields: readonly string[]): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RequestError(`the body must be a JSON object with ${fields.map((f) => `"${f}"`).join(' or ')}`);
  }
  return body as Body;
}

/** Unknown fields are refused, so a misspelled one ("document", "Top") is not silently ignored. */
function onlyFields(body: Body, allowed: readonly string[]): void {
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key))
      throw new RequestError(`unknown field "${key}" (expected ${allowed.map((f) => `"${f}"`).join(', ')})`);
  }
}

function array(value: unknown, name: string): readonly unknown[] {
  if (!Array.isArray(value)) throw new RequestError(`${name} must be an array`);
  return value;
}

function strings(value: unknown, name: string, { nonEmpty = false } = {}): string[] {
  return array(value, name).map((item, i) => {
    if (typeof item !== 'string') throw new RequestError(`${name}[${i}] must be a string`);
    if (nonEmpty && item === '') throw new RequestError(`${name}[${i}] must not be empty`);
    return item;
  });
}

/** `[{"id", "text"}]`, ids non-empty and unique within the request. */
function documents(value: unknown, name: string): IndexDocument[] {
  const seen = new Map<string, number>();
  return array(value, name).map((item, i) => {
    const at = `${name}[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new RequestError(`${at} must be an object with "id" and "text"`);
    const doc = item as Body;
    for (const key of Object.keys(doc))
      if (key !== 'id' && key !== 'text')
        throw new RequestError(`unknown field "${key}" in ${at} (expected "id", "text")`);
    if (!('id' in doc)) throw new RequestError(`${at}.id is missing`);
    if (typeof doc.id !== 'string' || doc.id === '') throw new RequestError(`${at}.id must be a non-empty string`);
    if (!('text' in doc)) throw new RequestError(`${at}.text is missing`);
    if (typeof doc.text !== 'string') throw new RequestError(`${at}.text must be a string`);
    const earlier = seen.get(doc.id);
    if (earlier !== undefined)
      throw new RequestError(`${at}.id ${JSON.stringify(doc.id)} repeats ${name}[${earlier}].id: ids are unique`);
    seen.set(doc.id, i);
    return { id: doc.id, text: doc.text };
  });
}

function optionalBoolean(value: unknown, name: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new RequestError(`${name} must be true or false`);
  return value;
}

/**
 * `{"texts": [...]}` or `{"documents": [{"id", "text"}]}`, and optional
 * `"top": K`, `"containment": C`, `"rerank": "exact"|"estimate"`.
 */
export function parseQueryRequest(body: unknown): QueryRequest {
  const b = objectBody(body, ['texts', 'documents']);
  onlyFields(b, ['texts', 'documents', 'top', 'containment', 'rerank']);
  // The options table's checks (as `query --top`): top is a bound on the work one request can cause.
  let options: Pick<QueryRequest, 'top' | 'containment' | 'rerank'>;
  try {
    const checked = <T>(name: 'top' | 'containment' | 'rerank', check: (v: unknown) => T): T | undefined =>
      b[name] === undefined ? undefined : check(b[name]);
    options = {
      top: checked('top', OPTIONS.top.check),
      containment: checked('containment', OPTIONS.containment.check),
      rerank: checked('rerank', OPTIONS.rerank.check),
    };
  } catch (error) {
    throw new RequestError((error as Error).message);
  }
  if (b.texts !== undefined && b.documents !== undefined)
    throw new RequestError('give "texts" or "documents", not both');
  if (b.texts !== undefined) return { texts: strings(b.texts, 'texts'), ...options };
  if (b.documents !== undefined) {
    const docs = documents(b.documents, 'documents');
    return { texts: docs.map((d) => d.text), ids: docs.map((d) => d.id), ...options };
  }
  throw new RequestError('the body needs "texts" (an array of strings) or "documents" (an array of {"id", "text"})');
}

/** `{"documents": [{"id", "text"}]}` and an optional `"all": true`. */
export function parseAddRequest(body: unknown): AddRequest {
  const b = objectBody(body, ['documents']);
  onlyFields(b, ['documents', 'all']);
  if (b.documents === undefined) throw new RequestError('the body needs "documents" (an array of {"id", "text"})');
  return { documents: documents(b.documents, 'documents'), all: optionalBoolean(b.all, 'all') };
}

/** `{"ids": [...]}`. */
export function parseRemoveRequest(body: unknown): RemoveRequest {
  const b = objectBody(body, ['ids']);
  onlyFields(b, ['ids']);
  if (b.ids === undefined) throw new RequestError('the body needs "ids" (an array of strings)');
  return { ids: strings(b.ids, 'ids', { nonEmpty: true }) };
}

/**
 * A body's `Content-Type` must be JSON (`application/json`, parameters such as
 * `charset=utf-8` allowed): a browser page may send `text/plain` (or a form)
 * to any address without asking first, JSON it may not.
 */
export function checkJsonContentType(contentType: string | undefined): void {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    throw new RequestError(
      `the body must be sent as "Content-Type: application/json", not ` +
        `${contentType === undefined ? 'without a Content-Type' : JSON.stringify(contentType)}`,
      415,
      { 'Accept-Post': 'application/json' },
    );
  }
}
