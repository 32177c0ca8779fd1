import { configureReferralRebates, myInvitationsInfo } from "@candor/contract";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { Database } from "../../db/database.ts";
import type { EngineSubmitQuery } from "../../engine/submit.ts";
import { defineRoute } from "../../http/define-route.ts";
import { InvitationsRepository } from "./invitations.repository.ts";
import { InvitationsService } from "./invitations.service.ts";

/** Options of the invitations module. */
export interface InvitationsModuleOptions {
  database: Database;
  /** Public origin of the app (PUBLIC_URL): the origin of invite links when set. */
  publicUrl?: string;
  /** The engine: rebate shares and asset scales; without it no rebates are shown or set. */
  engine?: EngineSubmitQuery;
  now?: () => number;
}

/** The signed-in user's invite code, link (with QR code) and invitation records. */
export const invitationsModule: FastifyPluginAsync<InvitationsModuleOptions> = async (
  app,
  options,
) => {
  const service = new InvitationsService(
    new InvitationsRepository(options.database),
    options.engine,
    options.now ?? Date.now,
  );
  const publicOrigin = options.publicUrl ? new URL(options.publicUrl).origin : undefined;

  /**
   * PUBLIC_URL when configured; otherwise the origin the request came to (a local app). The
   * link is shown only to the user who asked, so a forged `Host` misleads only its sender.
   */
  function origin(request: FastifyRequest): string {
    return publicOrigin ?? `${request.protocol}://${request.host}`;
  }

  defineRoute(
    app,
    myInvitationsInfo,
    { perUser: { max: 60, windowMs: 60_000 } },
    ({ query, request, user }) => service.me(user.id, user.mode, origin(request), query.limit),
  );

  defineRoute(app, configureReferralRebates, { bodyBytes: 1_024 }, ({ body, request }) =>
    service.configure(body, request.operatorAccount?.id ?? null),
  );
};
