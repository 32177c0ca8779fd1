// How `npm start` runs the built server (package.json "start": `[VAR=value ...] node [--flag
// ...] apps/server/dist/main.mjs`): the environment it sets and the Node flags it passes. The
// benchmarks and the tests that start the bundle run it the same way.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The repository's package.json: found upwards, since a bundled benchmark runs from dist/. */
function rootPackage(): { name?: string; scripts?: Record<string, string> } {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const json = JSON.parse(readFileSync(file, "utf8")) as { name?: string };
      if (json.name === "candor") return json;
    }
    if (path.dirname(dir) === dir) throw new Error("the repository's package.json was not found");
  }
}

export interface StartCommand {
  /** Environment assignments before `node` (GLIBC_TUNABLES: see docs/decisions.md). */
  env: Record<string, string>;
  /** Node and V8 flags before the entry (see docs/decisions.md). */
  flags: string[];
}

export function startCommand(): StartCommand {
  const script = rootPackage().scripts?.start ?? "";
  const match = /((?:\w+=\S+ )*)node ((?:--\S+ )*)apps\/server\/dist\/main\.mjs/.exec(script);
  if (!match)
    throw new Error(`package.json "start" is not "... node [flags] apps/server/dist/main.mjs"`);
  const words = (text: string) => text.split(" ").filter(Boolean);
  return {
    env: Object.fromEntries(
      words(match[1]!).map((assignment) => {
        const at = assignment.indexOf("=");
        return [assignment.slice(0, at), assignment.slice(at + 1)];
      }),
    ),
    flags: words(match[2]!),
  };
}
