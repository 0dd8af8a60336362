// Entry of dist/pdfjs.js: Mozilla's pdf.js (pdfjs-dist, its legacy build, which runs on Node), display API and
// worker side together. The conversion worker loads it on its first PDF (pdfText.ts), so the worker starts
// without parsing it. pdf.js runs its worker side in the same thread ("fake worker", found through
// globalThis.pdfjsWorker): Scout already runs it off the extension host's thread.
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';

globalThis.pdfjsWorker = pdfjsWorker;

export { getDocument, VerbosityLevel } from 'pdfjs-dist/legacy/build/pdf.mjs';
