import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** Options of `securityHeadersPlugin`. */
export interface SecurityHeadersOptions {
  /** The public origin (`PUBLIC_URL`); HSTS is sent only when it is https. */
  publicUrl?: string;
}

/** What a page may load besides the defaults: hashes of its inline `<style>` blocks. */
export interface ContentSecurityPolicyOptions {
  /** `'sha256-…'` sources of the page's inline style blocks (default: `webAppStyleHashes`). */
  styleHashes?: readonly string[];
  /** Whether the app is served over https (adds `upgrade-insecure-requests`). */
  https?: boolean;
}

/**
 * Inline style blocks the web app adds at run time, by hash. lightweight-charts adds one
 * `<style>` for its TradingView attribution logo (its licence asks for the attribution).
 * `security-headers.test.ts` checks the hash against the installed library, and
 * tests/browser/content-security-policy.test.ts fails on any block not listed here.
 */
export const webAppStyleHashes: readonly string[] = [
  "'sha256-3pRED1tOXas1FXFoPb9TGCjmYe9XQsmO9OV23khV2nY='",
];

/** The CSP source for an inline `<style>` block with exactly this text. */
export function styleHash(css: string): string {
  return `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
}

/**
 * The Content-Security-Policy of every response. No inline script and no `eval` anywhere: the
 * Vite build emits only external modules. Styles come from the app's own CSS files and the
 * hashed blocks above; React's `style` props (antd-mobile's CSS variables) are set through the
 * CSSOM, which `style-src` does not govern, so no `'unsafe-inline'` is needed. `connect-src 'self'` covers the
 * same-origin WebSocket (`ws:`/`wss:` to this host). Nothing may frame the app.
 */
export function contentSecurityPolicy(options: ContentSecurityPolicyOptions = {}): string {
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${["'self'", ...(options.styleHashes ?? webAppStyleHashes)].join(" ")}`,
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** The headers every response carries (and HSTS when the public origin is https). */
export function securityHeaders(options: SecurityHeadersOptions = {}): Record<string, string> {
  const https = options.publicUrl?.startsWith("https://") ?? false;
  return {
    "content-security-policy": contentSecurityPolicy({ https }),
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    ...(https ? { "strict-transport-security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/**
 * Sets the security headers on every response: API answers, errors, 404s, the docs page and
 * the web app's files. Set when the request arrives, so every later path (error handler, not
 * found, static files) keeps them; a route may narrow or extend its own CSP (the docs page
 * allows the hash of its inline style). Register first.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: SecurityHeadersOptions) => {
    const headers = securityHeaders(options);
    app.addHook("onRequest", async (_request, reply) => {
      reply.headers(headers);
    });
  },
  { name: "security-headers" },
);
