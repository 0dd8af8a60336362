// Entry of dist/convertWorker.js: the only bundle that holds linkedom, turndown, readability and iconv-lite
// (pdf.js it loads from dist/pdfjs.js on its first PDF). It runs as a child process of the tool's host
// (workerPool.ts forks it), talking over the IPC channel with Node's advanced serialization. Once loaded it
// posts a ReadyMessage. It answers each RenderRequest with a 'decoded' then a 'converted' message (see
// render.ts; a PDF gets only the 'converted' one), and each WorkerTaskRequest (a message with a `task` field;
// the only task is `duckduckgoPage`) with one reply. It handles one request at a time: the pool sends the next
// only after the answer. It exits when its parent does (the channel disconnects).
import { parseDuckDuckGoPage, type DuckDuckGoPageRequest } from '../search/providers/duckduckgoPage';
import { render, type RenderMessage, type RenderRequest, type WorkerTaskRequest } from './render';
import { READY } from './workerReady';

const post = (message: unknown): void => {
  process.send?.(message);
};

process.on('message', (request: RenderRequest | WorkerTaskRequest) => {
  if ('task' in request) post(parseDuckDuckGoPage(request as DuckDuckGoPageRequest));
  else void render(request, (message: RenderMessage) => post(message));
});
process.on('disconnect', () => process.exit(0));
post(READY);
