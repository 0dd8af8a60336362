// Entry of dist/convertWorker.js: the only bundle that holds linkedom, turndown, readability and iconv-lite.
// It answers each RenderRequest with a 'decoded' then a 'converted' message (see render.ts), and each
// WorkerTaskRequest (a message with a `task` field; the only task is `duckduckgoPage`) with one reply.
import { parentPort } from 'node:worker_threads';
import { parseDuckDuckGoPage, type DuckDuckGoPageRequest } from '../search/providers/duckduckgoPage';
import { render, type RenderRequest, type WorkerTaskRequest } from './render';

parentPort?.on('message', (request: RenderRequest | WorkerTaskRequest) => {
  if ('task' in request) parentPort!.postMessage(parseDuckDuckGoPage(request as DuckDuckGoPageRequest));
  else render(request, (message) => parentPort!.postMessage(message));
});
