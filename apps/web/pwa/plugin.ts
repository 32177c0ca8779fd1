// Builds the installable app's moving parts into dist/ (issue 24): sw.js with this build's id
// and shell files, and offline.js with the offline page's texts in every locale.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import type { Plugin } from "vite";

const here = new URL("./", import.meta.url);
const localesDir = new URL("../src/locales/", import.meta.url);

/** Files every build precaches besides its entry script and style (paths in public/). */
const staticShell = [
  "offline.html",
  "offline.css",
  "offline.js",
  "manifest.webmanifest",
  "icons/icon-192.png",
  "icons/icon-512.png",
];

/** The offline page's texts by locale, from the app's locale files (`pwa` section). */
export function offlineTexts(): Record<string, { title: string; body: string; retry: string }> {
  const texts: Record<string, { title: string; body: string; retry: string }> = {};
  for (const file of readdirSync(localesDir).filter((name) => name.endsWith(".json"))) {
    const { pwa } = JSON.parse(readFileSync(new URL(file, localesDir), "utf8")) as {
      pwa: { offlineTitle: string; offlineBody: string; offlineRetry: string };
    };
    texts[file.slice(0, -".json".length)] = {
      title: pwa.offlineTitle,
      body: pwa.offlineBody,
      retry: pwa.offlineRetry,
    };
  }
  return texts;
}

export function pwaPlugin(): Plugin {
  return {
    name: "candor-pwa",
    apply: "build",
    generateBundle(_options, bundle) {
      const entryFiles: string[] = [];
      for (const item of Object.values(bundle)) {
        if (item.type !== "chunk" || !item.isEntry) continue;
        entryFiles.push(item.fileName, ...(item.viteMetadata?.importedCss ?? []));
      }
      const build = createHash("sha256")
        .update(Object.keys(bundle).sort().join("\n"))
        .digest("hex")
        .slice(0, 16);
      const precache = ["./", "index.html", ...staticShell, ...entryFiles];
      const template = (name: string) => readFileSync(new URL(name, here), "utf8");
      this.emitFile({
        type: "asset",
        fileName: "sw.js",
        source: template("sw.js")
          .replace("__BUILD__", build)
          .replace("__PRECACHE__", JSON.stringify(precache)),
      });
      this.emitFile({
        type: "asset",
        fileName: "offline.js",
        source: template("offline.js").replace("__TEXTS__", JSON.stringify(offlineTexts())),
      });
    },
  };
}
