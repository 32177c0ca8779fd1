import {
  latestLiabilitiesEndpoint,
  liabilitiesHistoryEndpoint,
  myLiabilityProofEndpoint,
  publishLiabilitiesEndpoint,
  transparencyEndpoint,
} from "@candor/contract";
import type { FastifyPluginAsync } from "fastify";
import type { Database } from "../../db/database.ts";
import { defineRoute } from "../../http/define-route.ts";
import { ProofRepository } from "./proof.repository.ts";
import { ProofService, type ProofEngine } from "./proof.service.ts";
import { WorkerTreeBuilder, type TreeBuilder } from "./tree-builder.ts";

/** Options of the proof module. */
export interface ProofModuleOptions {
  database: Database;
  engine: ProofEngine;
  now?: () => number;
  /** Publish a new root every this many ms (the first soon after start); unset: on request only. */
  intervalMs?: number;
  /** Defaults to a worker thread; tests may build in the same thread. */
  builder?: TreeBuilder;
}

/**
 * Proof of liabilities (public roots, each user's inclusion proof, publication on request) and
 * the transparency page's figures from the ledger.
 */
export const proofModule: FastifyPluginAsync<ProofModuleOptions> = async (app, options) => {
  const builder = options.builder ?? new WorkerTreeBuilder();
  const service = new ProofService(
    new ProofRepository(options.database),
    options.engine,
    builder,
    options.now ?? Date.now,
  );
  const perIp = { max: 120, windowMs: 60_000 };
  defineRoute(app, latestLiabilitiesEndpoint, { perIp }, () => service.latestPublished());
  defineRoute(app, liabilitiesHistoryEndpoint, { perIp }, ({ query }) =>
    service.history(query.limit),
  );
  defineRoute(
    app,
    myLiabilityProofEndpoint,
    { perIp, perUser: { max: 30, windowMs: 60_000 } },
    ({ user }) => service.mine(user.id.toString()),
  );
  defineRoute(app, publishLiabilitiesEndpoint, {}, () => service.publish());
  defineRoute(app, transparencyEndpoint, { perIp }, () => service.transparency());

  const timers: NodeJS.Timeout[] = [];
  if (options.intervalMs) {
    const publish = () =>
      service.publish().catch((error: unknown) => {
        app.log.error({ error: String(error) }, "proof of liabilities: publication failed");
      });
    timers.push(setTimeout(publish, Math.min(options.intervalMs, 10_000)).unref());
    timers.push(setInterval(publish, options.intervalMs).unref());
  }
  app.addHook("onClose", async () => {
    for (const timer of timers) clearTimeout(timer);
    await builder.close();
  });
};
