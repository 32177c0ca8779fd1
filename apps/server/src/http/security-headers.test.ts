import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../app.ts";
import { describeEachDatabase } from "../testing/databases.ts";
import { readFileSync } from "node:fs";
import {
  contentSecurityPolicy,
  securityHeaders,
  styleHash,
  webAppStyleHashes,
} from "./security-headers.ts";

/** The CSP directives of a header, by name. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(";").map((part) => {
      const [name, ...sources] = part.trim().split(/\s+/);
      return [name!, sources];
    }),
  );
}

it("the policy forbids inline script, eval, framing and plugins", () => {
  const csp = directives(contentSecurityPolicy());
  expect(csp.get("script-src")).toEqual(["'self'"]);
  expect(csp.get("style-src")).toEqual(["'self'", ...webAppStyleHashes]);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  expect(csp.get("object-src")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'none'"]);
  for (const sources of csp.values()) {
    expect(sources).not.toContain("'unsafe-inline'");
    expect(sources).not.toContain("'unsafe-eval'");
    expect(sources).not.toContain("*");
  }
  expect(styleHash("a{}")).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
});

it("allows exactly the style block the installed lightweight-charts injects", () => {
  const library = readFileSync(
    new URL(
      "../../../../node_modules/lightweight-charts/dist/lightweight-charts.production.mjs",
      import.meta.url,
    ),
    "utf8",
  );
  const blocks = [...library.matchAll(/createElement\("style"\),[\w.]+\.innerText="([^"]+)"/g)];
  expect(blocks.map((m) => styleHash(m[1]!))).toEqual(webAppStyleHashes);
});

it("sends HSTS only when the public origin is https", () => {
  expect(securityHeaders({})["strict-transport-security"]).toBeUndefined();
  expect(securityHeaders({ publicUrl: "http://example.com" })["strict-transport-security"]).toBe(
    undefined,
  );
  const https = securityHeaders({ publicUrl: "https://trade.example.com" });
  expect(https["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  expect(https["content-security-policy"]).toContain("upgrade-insecure-requests");
});

describeEachDatabase("security headers on every kind of response", (database) => {
  let app: FastifyInstance;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(tmpdir(), "candor-web-"));
    writeFileSync(path.join(webRoot, "index.html"), "<!doctype html><title>x</title>");
    writeFileSync(path.join(webRoot, "app.js"), "export {};");
    app = await buildApp({ database: database(), webRoot, publicUrl: "https://t.example.com" });
  });
  afterAll(async () => {
    await app.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it.each([
    ["API answer", "GET", "/api/v1/health", undefined, 200],
    ["web app page", "GET", "/", undefined, 200],
    ["web app file", "GET", "/app.js", undefined, 200],
    ["OpenAPI document", "GET", "/api/openapi.json", undefined, 200],
    ["not found", "GET", "/api/v1/nope", undefined, 404],
    ["unauthorised", "GET", "/api/v1/me", undefined, 401],
    ["malformed JSON", "POST", "/api/v1/auth/login", "{not json", 400],
    ["method not allowed", "DELETE", "/api/v1/health", undefined, 404],
  ] as const)("%s", async (_name, method, url, payload, status) => {
    const response = await app.inject({
      method,
      url,
      payload,
      headers: payload ? { "content-type": "application/json" } : {},
    });
    expect(response.statusCode).toBe(status);
    expect(response.headers["content-security-policy"]).toBe(
      contentSecurityPolicy({ https: true }),
    );
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["strict-transport-security"]).toContain("max-age=");
  });

  it("the docs page allows exactly the hash of its own style block and no script", async () => {
    const response = await app.inject({ method: "GET", url: "/api/docs" });
    expect(response.statusCode).toBe(200);
    const styles = [...response.body.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
    expect(styles).toHaveLength(1);
    expect(response.body).not.toMatch(/<script|\son\w+=/i);
    const csp = directives(String(response.headers["content-security-policy"]));
    expect(csp.get("style-src")).toEqual(["'self'", styleHash(styles[0]!)]);
    expect(csp.get("script-src")).toEqual(["'self'"]);
    expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
  });
});
