import { myInvitationsInfo } from "@candor/contract";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { Database } from "../../db/database.ts";
import { defineRoute } from "../../http/define-route.ts";
import { InvitationsRepository } from "./invitations.repository.ts";
import { InvitationsService } from "./invitations.service.ts";

/** Options of the invitations module. */
export interface InvitationsModuleOptions {
  database: Database;
  /** Public origin of the app (PUBLIC_URL): the origin of invite links when set. */
  publicUrl?: string;
}

/** The signed-in user's invite code, link (with QR code) and invitation records. */
export const invitationsModule: FastifyPluginAsync<InvitationsModuleOptions> = async (
  app,
  options,
) => {
  const service = new InvitationsService(new InvitationsRepository(options.database));
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
    ({ query, request, user }) => service.me(user.id, origin(request), query.limit),
  );
};
