// Entry of the proof worker thread: loads the TypeScript worker through tsx, whether or not the
// parent process runs under tsx (the server does; vitest does not register it for workers).
import { tsImport } from "tsx/esm/api";

await tsImport("./tree-builder.worker.ts", import.meta.url);
