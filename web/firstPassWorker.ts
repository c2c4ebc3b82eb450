/**
 * One of the tab's first-pass workers (src/firstPass/handler.ts), started by the dedup worker; files come as File
 * objects.
 */
import { firstPassHandler } from '../src/firstPass/handler.js';
import { answerRequests } from '../src/workers/pool.js';
import { BROWSER_SOURCES } from './webSources.js';

answerRequests(
  {
    postMessage: (message, transfer) => (self as unknown as Worker).postMessage(message, transfer),
    onRequest: (handle) => (self.onmessage = (event: MessageEvent) => handle(event.data)),
  },
  firstPassHandler(BROWSER_SOURCES) as never,
);
