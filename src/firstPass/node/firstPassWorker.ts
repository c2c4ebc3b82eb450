/** Worker thread of the first pass (src/firstPass/handler.ts), opening files through node:fs. */
import { firstPassHandler } from '../handler.js';
import { NODE_SOURCES } from './nodeSources.js';
import { serveRequests } from '../../workers/workerPool.js';

serveRequests(firstPassHandler(NODE_SOURCES) as never);
