import nodemailer, { type Transporter } from "nodemailer";
import type { FastifyBaseLogger } from "fastify";
import { messagesByLocale, type Locale } from "@candor/contract";
import { AppError } from "../../http/app-error.ts";
import type { AuthRepository } from "./auth.repository.ts";

/** One e-mail; `locale` is the language of its text (the anti-phishing line follows it). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  locale?: Locale;
}

/** Sends e-mail over SMTP when configured; every message also lands in the operator's outbox. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface MailerOptions {
  /** Where every message is kept (the operator's outbox). */
  outbox: Pick<AuthRepository, "insertOutboxEmail">;
  /** The recipient's anti-phishing code (issue 17), put at the top of every message to them. */
  antiPhishingCodes?: Pick<AuthRepository, "antiPhishingCodeFor">;
  now: () => number;
  log: FastifyBaseLogger;
  /** `smtp://user:pass@host:587` or `smtps://…`; unset keeps mail in the outbox only. */
  smtpUrl?: string;
  mailFrom?: string;
}

/**
 * The text as sent: with the recipient's anti-phishing code first when they set one, so a
 * forged e-mail (which cannot know it) is told apart from Candor's.
 */
export function withAntiPhishingLine(text: string, code: string | null, locale: Locale): string {
  if (!code) return text;
  const line = messagesByLocale[locale].mail.antiPhishingLine.replace(/\{\{\s*code\s*\}\}/g, code);
  return `${line}\n\n${text}`;
}

export function createMailer(options: MailerOptions): Mailer & { close(): void } {
  const transport: Transporter | undefined = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : undefined;
  const from = options.mailFrom ?? "Candor <no-reply@localhost>";
  return {
    async send({ to, subject, text: body, locale }) {
      const code = (await options.antiPhishingCodes?.antiPhishingCodeFor(to)) ?? null;
      const text = withAntiPhishingLine(body, code, locale ?? "en");
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
