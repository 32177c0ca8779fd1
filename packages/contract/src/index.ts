export * from "./envelope.ts";
export * from "./errors.ts";
export * from "./health.ts";
export * from "./locales.ts";
export * from "./messages.ts";
export * from "./notices.ts";
