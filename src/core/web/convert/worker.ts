// Entry of dist/convertWorker.js: the only bundle that holds linkedom, turndown, readability and iconv-lite
// (pdf.js it loads from dist/pdfjs.js on its first PDF). It runs as a child process of the tool's host
// (workerPool.ts forks it), talking over the IPC channel with Node's advanced serialization. Once loaded it
// posts a ReadyMessage. It answers each RenderRequest with a 'decoded' then a 'converted' message (see
// render.ts; a PDF gets a 'pdf-page' message per page read, then the 'converted' one), and each WorkerTaskRequest (a message with a `task` field;
// the only task is `duckduckgoPage`) with one reply. It handles one request at a time: the pool sends the next
// only after the answer. It exits when its parent does (the channel disconnects).
import { parseDuckDuckGoPage, type DuckDuckGoPageRequest } from '../search/providers/duckduckgoPage';
import { render, type RenderMessage, type RenderRequest, type WorkerTaskRequest } from './render';
import { READY } from './workerReady';

/** Sends `message` to the pool; resolves once it has been written to the channel (or could not be). */
const post = (message: unknown): Promise<void> =>
  new Promise((resolve) => {
    if (!process.send) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });

process.on('message', (request: RenderRequest | WorkerTaskRequest) => {
  if ('task' in request) void post(parseDuckDuckGoPage(request as DuckDuckGoPageRequest));
  else void render(request, (message: RenderMessage) => post(message));
});
process.on('disconnect', () => process.exit(0));
void post(READY);
