import path from "node:path";

/**
 * The folder of uploaded files: UPLOADS_DIR, else DATA_DIR/uploads. Refused inside the web
 * root, whose files anyone may fetch: uploads are served only through their owner checks.
 */
export function uploadsDir(configured: string | undefined, dataDir: string, webRoot: string) {
  const dir = path.resolve(configured ?? path.join(dataDir, "uploads"));
  const root = path.resolve(webRoot);
  if (dir === root || dir.startsWith(root + path.sep)) {
    throw new Error(`UPLOADS_DIR=${JSON.stringify(dir)} is inside the web root ${root}`);
  }
  return dir;
}
