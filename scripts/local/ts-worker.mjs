// A worker thread's entry for a TypeScript module: tsx's API loads `workerData.entry` (a file URL),
// so the worker runs .ts under `npm start` (tsx), `node --import tsx` and vitest alike (a worker
// does not inherit the parent's module loader).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
