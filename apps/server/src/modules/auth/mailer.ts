import nodemailer, { type Transporter } from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import { AppError } from "../../http/app-error.ts";
import type { AuthRepository } from "./auth.repository.ts";

/** Sends e-mail over SMTP when configured; every message also lands in the operator's outbox. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

export interface MailerOptions {
  /** Where every message is kept (the operator's outbox). */
  outbox: Pick<AuthRepository, "insertOutboxEmail">;
  now: () => number;
  log: FastifyBaseLogger;
  /** `smtp://user:pass@host:587` or `smtps://…`; unset keeps mail in the outbox only. */
  smtpUrl?: string;
  mailFrom?: string;
}

export function createMailer(options: MailerOptions): Mailer & { close(): void } {
  const transport: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : undefined;
  const from = options.mailFrom ?? "Candor <no-reply@localhost>";
  return {
    async send({ to, subject, text }) {
      await options.outbox.insertOutboxEmail({
        to,
        subject,
        text,
        delivery: transport ? "smtp" : "outbox",
        createdAt: new Date(options.now()),
      });
      if (!transport) {
        // No SMTP: the operator reads codes from the log or `npm run outbox`.
        options.log.info({ to, subject, text }, "e-mail kept in the outbox (SMTP_URL not set)");
        return;
      }
      try {
        await transport.sendMail({ from, to, subject, text });
      } catch (error) {
        options.log.error({ err: error, to }, "SMTP delivery failed; the e-mail is in the outbox");
        throw new AppError("mail_unavailable", undefined, { cause: error });
      }
    },
    close() {
      transport?.close();
    },
  };
}
