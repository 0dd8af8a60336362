// Entry of dist/convertWorker.js: the only bundle that holds linkedom, turndown, readability, pdf.js and
// iconv-lite. It answers each RenderRequest with a 'decoded' then a 'converted' message (see render.ts; a PDF
// gets only the 'converted' one), and each WorkerTaskRequest (a message with a `task` field; the only task is
// `duckduckgoPage`) with one reply. It handles one request at a time: the pool sends the next only after the
// answer.
import { parentPort } from 'node:worker_threads';
import { parseDuckDuckGoPage, type DuckDuckGoPageRequest } from '../search/providers/duckduckgoPage';
import { render, type RenderRequest, type WorkerTaskRequest } from './render';

parentPort?.on('message', (request: RenderRequest | WorkerTaskRequest) => {
  if ('task' in request) parentPort!.postMessage(parseDuckDuckGoPage(request as DuckDuckGoPageRequest));
  else void render(request, (message) => parentPort!.postMessage(message));
});
