import {
  ErrorEnvelope,
  httpStatusByErrorCode,
  type EndpointSpec,
  type ErrorCode,
} from "@candor/contract";
import { existsSync, readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { version } from "../version.ts";
import { contentSecurityPolicy, styleHash } from "./security-headers.ts";
import { serverFile } from "../server-files.ts";

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  try {
    const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
    return rest as JsonSchema;
  } catch {
    // One schema JSON Schema cannot express must not take the whole document down.
    return { description: "(not representable in JSON Schema)" };
  }
}

/** `/api/v1/orders/:orderId` → `/api/v1/orders/{orderId}`. */
function openApiPath(path: string) {
  return path.replace(/:(\w+)/g, "{$1}");
}

function parameters(schema: z.ZodType | undefined, where: "query" | "path") {
  if (!schema) return [];
  const json = jsonSchema(schema, "input") as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    schema: property,
  }));
}

/** The OpenAPI 3.1 document of every endpoint registered with `defineRoute`. */
export function openApiDocument(endpoints: readonly EndpointSpec[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of [...endpoints].sort((a, b) => a.path.localeCompare(b.path))) {
    const path = openApiPath(endpoint.path);
    const errors: ErrorCode[] = ["validation_failed", ...(endpoint.errors ?? [])];
    if (endpoint.auth !== "none") errors.push("unauthorized");
    const errorStatuses = [...new Set(errors.map((c) => httpStatusByErrorCode[c]))].sort();
    paths[path] ??= {};
    paths[path][endpoint.method.toLowerCase()] = {
      summary: endpoint.summary,
      ...(endpoint.description ? { description: endpoint.description } : {}),
      tags: [endpoint.tag],
      security:
        endpoint.auth === "none"
          ? []
          : endpoint.auth === "operator"
            ? [{ operator: [] }]
            : [{ bearer: [] }, { cookie: [] }],
      parameters: [
        ...parameters(endpoint.params, "path"),
        ...parameters(endpoint.query, "query"),
        {
          name: "X-Lang",
          in: "header",
          required: false,
          schema: { type: "string" },
          description: "Language of messages (en, zh-Hant, jp, kr, th, es, pt, de, fr, sv, it, ru)",
        },
      ],
      ...(endpoint.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: jsonSchema(endpoint.body, "input") } },
            },
          }
        : {}),
      responses: {
        200: {
          description: "Success: `code` 200 and the data",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["code", "message", "data"],
                properties: {
                  code: { const: 200 },
                  message: { type: "string" },
                  data: jsonSchema(endpoint.response, "output"),
                },
              },
            },
          },
        },
        ...Object.fromEntries(
          errorStatuses.map((status) => [
            status,
            {
              description: `Error: ${errors.filter((c) => httpStatusByErrorCode[c] === status).join(", ")}`,
              content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
            },
          ]),
        ),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Candor API",
      version,
      description:
        "Every response is an envelope `{ code, message, data, error }`: `code` is 200 on " +
        "success and otherwise the HTTP status, `error` a stable string code, `message` in the " +
        "language of `X-Lang` or `Accept-Language`.",
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(ErrorEnvelope, "output") },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Session token from sign-in" },
        cookie: { type: "apiKey", in: "cookie", name: "candor_session" },
        operator: { type: "http", scheme: "bearer", description: "OPERATOR_TOKEN" },
      },
    },
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

function fieldsTable(schema: z.ZodType | undefined, title: string): string {
  if (!schema) return "";
  const json = jsonSchema(schema, "input") as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const rows = Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property as { description?: string };
    const required = (json.required ?? []).includes(name) ? "yes" : "no";
    return `<tr><td><code>${escapeHtml(name)}</code></td><td>${required}</td><td><code>${escapeHtml(
      JSON.stringify(rest),
    )}</code></td><td>${escapeHtml(description ?? "")}</td></tr>`;
  });
  if (rows.length === 0) return "";
  return `<h4>${title}</h4><table><tr><th>Field</th><th>Required</th><th>Schema</th><th>Notes</th></tr>${rows.join("")}</table>`;
}

/** Inline markdown: `code` and **bold**, escaped. */
const inline = (text: string) =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");

/**
 * Renders the small markdown subset of docs/api-map.md (headings, paragraphs, tables), so the
 * docs page shows which endpoint serves each path of the specification (DESIGN §4).
 */
export function markdownToHtml(markdown: string): string {
  const out: string[] = [];
  let table: string[][] = [];
  let paragraph: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(" "))}</p>`);
    paragraph = [];
  };
  const flushTable = () => {
    if (!table.length) return;
    const [head, ...rows] = table;
    out.push(
      `<table><tr>${head!.map((c) => `<th>${inline(c)}</th>`).join("")}</tr>${rows
        .map((r) => `<tr>${r.map((c) => `<td>${inline(c)}</td>`).join("")}</tr>`)
        .join("")}</table>`,
    );
    table = [];
  };
  for (const line of markdown.split("\n")) {
    if (line.startsWith("|")) {
      flushParagraph();
      const cells = line.slice(1, line.endsWith("|") ? -1 : undefined).split("|");
      if (!cells.every((c) => /^\s*:?-+:?\s*$/.test(c))) table.push(cells.map((c) => c.trim()));
      continue;
    }
    flushTable();
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      flushParagraph();
      const level = Math.min(heading[1]!.length + 1, 5);
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
    } else if (line.trim() === "") flushParagraph();
    else paragraph.push(line.trim());
  }
  flushParagraph();
  flushTable();
  return out.join("\n");
}

/** The docs page's only style block; its hash is the one inline style its CSP allows. */
const docsCss = `
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:0 auto;padding:16px;color:#1b1f24}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f4f5f7;padding:8px;overflow:auto}
details{border:1px solid #d8dde3;border-radius:6px;margin:6px 0;padding:6px 10px}summary{cursor:pointer}
.method{display:inline-block;min-width:56px;font-weight:700}.GET{color:#1565c0}.POST{color:#2e7d32}
.PATCH,.PUT{color:#8d6e00}.DELETE{color:#c62828}.auth{float:right;color:#5f6b7a;font-size:13px}
table{border-collapse:collapse;width:100%;display:block;overflow-x:auto}td,th{border:1px solid #d8dde3;padding:4px;text-align:left;vertical-align:top}
`;

/** A self-contained HTML page listing every endpoint (no scripts, no CDN). */
export function docsPage(endpoints: readonly EndpointSpec[], apiMapMarkdown?: string): string {
  const byTag = new Map<string, EndpointSpec[]>();
  for (const endpoint of endpoints) {
    byTag.set(endpoint.tag, [...(byTag.get(endpoint.tag) ?? []), endpoint]);
  }
  const sections = [...byTag.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, list]) => {
      const items = list
        .sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
        .map(
          (e) => `<details id="${escapeHtml(`${e.method}-${e.path}`)}">
<summary><span class="method ${e.method}">${e.method}</span> <code>${escapeHtml(e.path)}</code> — ${escapeHtml(e.summary)} <span class="auth">${e.auth === "none" ? "public" : e.auth}</span></summary>
${e.description ? `<p>${escapeHtml(e.description)}</p>` : ""}
${fieldsTable(e.params, "Path")}${fieldsTable(e.query, "Query")}${fieldsTable(e.body, "Body (JSON)")}
<h4>Response data</h4><pre>${escapeHtml(JSON.stringify(jsonSchema(e.response, "output"), null, 2))}</pre>
${e.errors?.length ? `<p>Errors: ${e.errors.map((c) => `<code>${c}</code>`).join(", ")}</p>` : ""}
</details>`,
        )
        .join("\n");
      return `<section><h2>${escapeHtml(tag)}</h2>\n${items}</section>`;
    })
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Candor API</title>
<style>${docsCss}</style></head><body>
<h1>Candor API ${escapeHtml(version)}</h1>
<p>Responses are <code>{ code, message, data, error }</code>: <code>code</code> 200 on success, otherwise the HTTP status;
<code>error</code> is a stable code; <code>message</code> follows <code>X-Lang</code> or <code>Accept-Language</code>.
Sign in, then send <code>Authorization: Bearer &lt;token&gt;</code> (or use the session cookie; requests that change something by cookie also need <code>X-Candor-CSRF: 1</code>).
Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.
How the specification's paths map to these: <a href="#api-map">API map</a>.</p>
${sections}
${apiMapMarkdown ? `<section id="api-map">${markdownToHtml(apiMapMarkdown)}</section>` : ""}
</body></html>`;
}

const apiMapPath = serverFile("../../../docs/api-map.md");

/** Serves `/api/openapi.json` and `/api/docs`, built on first request from the registry. */
export async function docsRoutes(app: FastifyInstance) {
  let document: ReturnType<typeof openApiDocument> | undefined;
  let page: string | undefined;
  app.get("/api/openapi.json", async () => (document ??= openApiDocument(app.endpoints)));
  app.get("/api/docs", async (_request, reply) => {
    page ??= docsPage(
      app.endpoints,
      existsSync(apiMapPath) ? readFileSync(apiMapPath, "utf8") : undefined,
    );
    return reply
      .type("text/html; charset=utf-8")
      .header(
        "content-security-policy",
        contentSecurityPolicy({ styleHashes: [styleHash(docsCss)] }),
      )
      .send(page);
  });
}
