// Entry of dist/convertWorker.js: the only bundle that holds linkedom, turndown, readability and iconv-lite
// (pdf.js it loads from dist/pdfjs.js on its first PDF). Once loaded it posts a ReadyMessage. It answers each
// RenderRequest with a 'decoded' then a 'converted' message (see render.ts; a PDF gets only the 'converted'
// one), and each WorkerTaskRequest (a message with a `task` field; the only task is `duckduckgoPage`) with one
// reply. It handles one request at a time: the pool sends the next only after the answer.
import { parentPort } from 'node:worker_threads';
import { parseDuckDuckGoPage, type DuckDuckGoPageRequest } from '../search/providers/duckduckgoPage';
import { render, type RenderRequest, type WorkerTaskRequest } from './render';
import { READY } from './workerReady';

parentPort?.on('message', (request: RenderRequest | WorkerTaskRequest) => {
  if ('task' in request) parentPort!.postMessage(parseDuckDuckGoPage(request as DuckDuckGoPageRequest));
  else void render(request, (message) => parentPort!.postMessage(message));
});
parentPort?.postMessage(READY);
