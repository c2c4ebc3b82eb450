/** Worker thread of the first pass (src/firstPass/handler.ts), opening files through node:fs. */
import { firstPassHandler } from '../firstPass/handler.js';
import { NODE_SOURCES } from '../io/nodeSources.js';
import { serveRequests } from './workerPool.js';

serveRequests(firstPassHandler(NODE_SOURCES) as never);
