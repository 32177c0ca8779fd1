import path from "node:path";
import { describe, expect, it } from "vitest";
import { uploadsDir } from "./uploads-dir.ts";

describe("uploadsDir", () => {
  const web = path.resolve("/srv/candor/apps/web/dist");
  it("defaults to DATA_DIR/uploads", () => {
    expect(uploadsDir(undefined, "/var/candor", web)).toBe(path.resolve("/var/candor/uploads"));
  });
  it("refuses the web root and anything inside it, however the path is spelled", () => {
    for (const inside of [web, `${web}/uploads`, `${web}/../dist/x`]) {
      expect(() => uploadsDir(inside, "/var/candor", web)).toThrow(/inside the web root/);
    }
    expect(uploadsDir("/srv/candor/apps/web/dist-uploads", "/d", web)).toBe(
      path.resolve("/srv/candor/apps/web/dist-uploads"),
    );
  });
});
