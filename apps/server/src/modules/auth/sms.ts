import type { FastifyBaseLogger } from "fastify";
import { AppError } from "../../http/app-error.ts";
import type { AuthRepository } from "./auth.repository.ts";

/**
 * Where text messages go: an SMS provider's adapter. Candor ships none (each provider has its
 * own API and contract); an operator passes one to `buildApp({ sms })`. Whatever the
 * provider, every message is also kept in the operator's outbox, like e-mail.
 */
export interface SmsProvider {
  /** Delivers one message; throws when the provider refuses or cannot be reached. */
  deliver(message: { to: string; text: string }): Promise<void>;
}

/** Sends text messages (phone verification codes). */
export interface SmsSender {
  send(message: { to: string; text: string }): Promise<void>;
}

export interface SmsSenderOptions {
  /** Where every message is kept (the operator's outbox, with e-mails). */
  outbox: Pick<AuthRepository, "insertOutboxEmail">;
  now: () => number;
  log: FastifyBaseLogger;
  /** The provider's adapter; unset keeps messages in the outbox (and the log) only. */
  provider?: SmsProvider;
}

/** Subject line of text messages in the outbox, which holds e-mails too. */
export const smsOutboxSubject = "SMS";

/** An SMS sender: through the provider when there is one, always into the outbox. */
export function createSmsSender(options: SmsSenderOptions): SmsSender {
  return {
    async send({ to, text }) {
      await options.outbox.insertOutboxEmail({
        to,
        subject: smsOutboxSubject,
        text,
        delivery: options.provider ? "sms" : "outbox",
        createdAt: new Date(options.now()),
      });
      if (!options.provider) {
        options.log.info({ to, text }, "SMS kept in the outbox (no SMS provider configured)");
        return;
      }
      try {
        await options.provider.deliver({ to, text });
      } catch (error) {
        options.log.error({ err: error, to }, "SMS delivery failed; the message is in the outbox");
        throw new AppError("mail_unavailable", undefined, { cause: error });
      }
    },
  };
}
