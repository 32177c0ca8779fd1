import type * as Contract from "@candor/contract";
import type { EndpointSpec } from "@candor/contract";
import type { EndpointRef } from "./api-client.ts";

/*
 * Each feature lists the endpoints it calls in its `api/endpoints.ts`, with `endpointTable`:
 * their method, path and auth, named as in `@candor/contract`. The contract's endpoint objects
 * carry their zod schemas, so importing them would put zod in the bundle; a table restates only
 * what a request needs, and the compiler checks each row against the contract (a wrong method,
 * path or auth, or a name the contract does not have, fails `tsc`). `api-endpoints.test.ts`
 * checks every table the same way at run time. Tables are per feature so that a route carries
 * the rows of its own features only (the home route's budget).
 */

/**
 * GET /api/v1/health: the server answers it, but the contract defines no endpoint for it yet, so
 * its spec is written here from the contract's `Health` schema.
 */
export interface HealthEndpoint extends EndpointSpec {
  method: "GET";
  path: "/api/v1/health";
  auth: "none";
  response: typeof Contract.Health;
}

/** Every endpoint of the contract by its export name, and the health endpoint. */
export type Endpoints = {
  [
    K in keyof typeof Contract as (typeof Contract)[K] extends EndpointSpec ? K : never
  ]: (typeof Contract)[K];
} & { health: HealthEndpoint };

type EndpointOf<K> = K extends keyof Endpoints ? Endpoints[K] : never;

/** A row must repeat its endpoint's method, path and auth exactly. */
type Row<E> = E extends EndpointSpec ? Pick<E, "method" | "path" | "auth"> : never;

/** A feature's endpoint table: each row checked against the contract endpoint of its name. */
export function endpointTable<const T extends { [K in keyof T]: Row<EndpointOf<K>> }>(
  rows: T,
): { readonly [K in keyof T]: EndpointRef<EndpointOf<K>> } {
  return rows as never;
}
