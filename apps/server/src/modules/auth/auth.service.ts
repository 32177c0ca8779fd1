import { randomBytes, randomInt } from "node:crypto";
import {
  messagesByLocale,
  type EndpointBody,
  type EndpointData,
  type EndpointQuery,
  type Locale,
  type SessionData,
  type demoLogin,
  type login,
  type operatorOutbox,
  type register,
  type resetPassword,
  type sendEmailCode,
  type sendPhoneCode,
  type updateMe,
  type walletLogin,
} from "@candor/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/database.ts";
import { AppError } from "../../http/app-error.ts";
import type { AuthUser } from "../../http/authenticate.ts";
import { AuthRepository } from "./auth.repository.ts";
import { ProofOfWorkCaptcha } from "./captcha.ts";
import { createMailer, type Mailer } from "./mailer.ts";
import { defaultPasswordCost, hashPassword, verifyPassword } from "./passwords.ts";
import { Sessions, type SessionBus } from "./sessions.ts";
import { createSmsSender, type SmsProvider, type SmsSender } from "./sms.ts";
import { SessionDirectory } from "./session-directory.ts";
import { SignInHistory, type SignInAttempt, type SignInClient } from "./sign-in-history.ts";
import { Residence } from "./residence.ts";
import { TradePasswords } from "./trade-password.ts";
import { TwoFactor } from "./two-factor.ts";
import { newInviteCode, sha256Hex, toUserInfo } from "./users.ts";
import { createWalletNonce, verifyWalletSignIn, type SiweOrigin } from "./wallet.ts";

const minute = 60_000;
const hour = 60 * minute;
const emailCodeLifetimeMs = 10 * minute;
const emailCodeAttemptsMax = 5;
/** Failed logins of one account within this window before a captcha is needed. */
const loginFailuresMax = 5;
export const loginFailureWindowMs = 15 * minute;
const agreementVersion = "2026-11-1";

/** Opens a user's ledger accounts for a mode (and grants demo money for "demo"); idempotent. */
export interface AccountOpener {
  open(userId: bigint, mode: "real" | "demo"): Promise<void>;
  /** Records the invitation in the kernel (for rebates), after the invitee's accounts opened. */
  link?(inviterId: bigint, inviteeId: bigint, mode: "real" | "demo"): Promise<void>;
}

/** What the auth service works with; tests may pass fakes. */
export interface AuthServiceDependencies {
  repository: AuthRepository;
  mailer: Mailer;
  /** Text messages (phone codes); tests may pass a fake. */
  sms: SmsSender;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** log2 of scrypt's N for new password hashes. */
  passwordCost: number;
  /** False skips captchas (CAPTCHA=off: scripted local use and tests). */
  captchaRequired: boolean;
  /** Largest secret number of a proof-of-work captcha (the work per attempt); default 250,000. */
  captchaCost?: number;
  accounts?: AccountOpener;
  /** Two-factor sign-in; without it (unit tests with fakes) nobody is asked for a code. */
  twoFactor?: TwoFactor;
  /** The security centre's session list; needs the database. */
  sessionDirectory?: (sessions: Sessions) => SessionDirectory;
  /** Sign-in history (successes and failures); needs the database. */
  signInHistory?: SignInHistory;
  /** Country of residence and its history; needs the database. */
  residence?: Residence;
  /** Session changes shared with the cluster's other nodes; unset in a single process. */
  sessionBus?: SessionBus;
}

/** A captcha answer as sign-in forms send it. */
interface CaptchaFields {
  captchaId?: string;
  captchaAnswer?: string;
}

/**
 * A name with all but its first and last characters hidden ("Alice" → "A***e", "Al" → "A*"),
 * by code point, so a name in any script masks alike. At most three stars: the length is not
 * told either.
 */
export function maskName(name: string): string {
  const chars = [...name.trim()];
  if (chars.length === 0) return "***";
  if (chars.length <= 2) return `${chars[0]}*`;
  return `${chars[0]}***${chars[chars.length - 1]}`;
}

/** An e-mail address lower-cased; a phone number as given. Keys sign-in attempts too. */
export function normalizeAccount(account: string): string {
  return account.includes("@") ? account.toLowerCase() : account;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? "");

const codeHash = (email: string, purpose: string, code: string) =>
  sha256Hex(`${email}:${purpose}:${code}`);

/**
 * Accounts and sign-in: registration (e-mail code or phone), password, demo and wallet
 * sign-in, sessions, the signed-in user's profile and passwords, invitations and the e-mail
 * outbox. Other modules use only `tradePassword` (and the app's `authenticate`).
 */
export class AuthService {
  /** Bearer-token sessions; `authenticatePlugin` looks tokens up here. */
  readonly sessions: Sessions;
  /** Trade passwords, for modules that move money (spot, wallet). */
  readonly tradePassword: TradePasswords;
  /** Two-factor sign-in (TOTP and recovery codes); undefined only in unit tests with fakes. */
  readonly twoFactor: TwoFactor | undefined;
  /** Active sessions for the security centre; undefined only in unit tests with fakes. */
  readonly sessionDirectory: SessionDirectory | undefined;
  /** Sign-in history; undefined only in unit tests with fakes. */
  readonly signInHistory: SignInHistory | undefined;
  /** Country of residence; undefined only in unit tests with fakes. */
  readonly residence: Residence | undefined;
  private readonly repository: AuthRepository;
  /** The app's e-mail (outbox + SMTP); the support chat e-mails visitors' answers through it. */
  readonly mailer: Mailer;
  private readonly sms: SmsSender;
  private readonly now: () => number;
  private readonly passwordCost: number;
  private readonly captchaRequired: boolean;
  private readonly captchas: ProofOfWorkCaptcha;
  private readonly accounts: AccountOpener | undefined;
  // Compared against when an account does not exist, so a miss costs as much time as a hit.
  // Made on first use: building the app (tests do it often) should not pay for a hash.
  private decoyHash: Promise<string> | undefined;

  constructor(dependencies: AuthServiceDependencies) {
    this.repository = dependencies.repository;
    this.mailer = dependencies.mailer;
    this.sms = dependencies.sms;
    this.now = dependencies.now;
    this.passwordCost = dependencies.passwordCost;
    this.captchaRequired = dependencies.captchaRequired;
    this.captchas = new ProofOfWorkCaptcha(this.repository, undefined, dependencies.captchaCost);
    this.accounts = dependencies.accounts;
    this.sessions = new Sessions(this.repository, this.now, dependencies.sessionBus);
    this.tradePassword = new TradePasswords(this.repository, this.passwordCost, this.now);
    this.twoFactor = dependencies.twoFactor;
    this.sessionDirectory = dependencies.sessionDirectory?.(this.sessions);
    this.signInHistory = dependencies.signInHistory;
    this.residence = dependencies.residence;
    const directory = this.sessionDirectory;
    if (directory) this.sessions.onLookup((tokenHash) => directory.touch(tokenHash));
  }

  // Captcha and agreement.

  /** A proof-of-work challenge for the client to solve (see `ProofOfWorkCaptcha`). */
  captcha() {
    const captcha = this.captchas.create(this.now());
    return { ...captcha, expiresAt: captcha.expiresAt.toISOString() };
  }

  agreement(locale: Locale) {
    return {
      version: agreementVersion,
      title: messagesByLocale[locale].agreement.title,
      text: messagesByLocale[locale].agreement.text,
    };
  }

  // Signing up and in.

  /**
   * E-mails a registration or reset code. Answers alike whether or not the address has an
   * account, so the answer never tells a requester who is registered.
   */
  async sendEmailCode(body: EndpointBody<typeof sendEmailCode>, locale: Locale) {
    const email = body.email.toLowerCase();
    if (this.captchaRequired) await this.requireCaptcha(body);
    const expiresAt = new Date(this.now() + emailCodeLifetimeMs);
    const existing = await this.repository.userIdByEmail(email);
    const texts = messagesByLocale[locale].mail;
    if (body.purpose === "register" && existing !== undefined) {
      // Tell the owner, not the requester: the answer is the same as for a new address.
      await this.mailer.send({
        to: email,
        subject: texts.existsSubject,
        text: texts.existsText,
        locale,
      });
    } else if (body.purpose === "reset_password" && existing === undefined) {
      // Nothing to reset; answering alike keeps unknown addresses unknown.
    } else {
      const code = await this.issueCode(email, body.purpose, expiresAt);
      await this.mailer.send({
        to: email,
        subject: fill(texts.codeSubject, { code }),
        text: fill(texts.codeText, { code }),
        locale,
      });
    }
    return { expiresAt: expiresAt.toISOString() };
  }

  /**
   * Texts a registration code to a phone number. Answers alike whether or not the number has
   * an account: a registered number gets a message saying so, never a code, so registering it
   * again fails exactly like a wrong code.
   */
  async sendPhoneCode(body: EndpointBody<typeof sendPhoneCode>, locale: Locale) {
    if (this.captchaRequired) await this.requireCaptcha(body);
    const expiresAt = new Date(this.now() + emailCodeLifetimeMs);
    const existing = await this.repository.loginAccount("phone", body.phone);
    const texts = messagesByLocale[locale].sms;
    if (existing !== undefined) {
      await this.sms.send({ to: body.phone, text: texts.existsText });
    } else {
      const code = await this.issueCode(body.phone, "register", expiresAt);
      await this.sms.send({ to: body.phone, text: fill(texts.codeText, { code }) });
    }
    return { expiresAt: expiresAt.toISOString() };
  }

  async register(body: EndpointBody<typeof register>, client?: SignInClient): Promise<SessionData> {
    if (!body.agreement) throw new AppError("agreement_required");
    if (this.captchaRequired) await this.requireCaptcha(body);
    const isEmail = body.account.includes("@");
    const email = isEmail ? body.account.toLowerCase() : null;
    let inviterId: bigint | null = null;
    if (body.inviteCode) {
      const inviter = await this.repository.userIdByInviteCode(body.inviteCode);
      if (inviter === undefined) throw new AppError("invite_code_invalid");
      inviterId = inviter;
    }
    // Checked last, so a mistake elsewhere in the form does not use up the code. A taken
    // address or number never got a code (its owner got a notice instead), so it fails here
    // exactly like a wrong code: registration does not tell who has an account.
    const phone = email ? null : body.account;
    if (email) {
      if (!body.emailCode) throw new AppError("email_code_invalid");
      await this.consumeEmailCode(email, "register", body.emailCode);
    } else {
      if (!body.phoneCode) throw new AppError("phone_code_invalid");
      await this.consumeEmailCode(body.account, "register", body.phoneCode, "phone_code_invalid");
    }
    const passwordHash = await hashPassword(body.password, this.passwordCost);
    // The trade password starts as the login password (spec §5), hashed with its own salt.
    const tradePasswordHash = await hashPassword(body.password, this.passwordCost);
    const userId = await this.repository.insertUser({
      kind: email ? "email" : "phone",
      email,
      phone,
      wallet_address: null,
      demo_name: null,
      password_hash: passwordHash,
      trade_password_hash: tradePasswordHash,
      email_verified: email !== null,
      nickname: email ? email.split("@")[0]!.slice(0, 32) : body.account.slice(-4),
      invite_code: newInviteCode(),
      inviter_id: inviterId,
      created_at: new Date(this.now()),
    });
    // Only a race (the same address registered meanwhile by another valid code) gets here.
    if (userId === null) throw new AppError(email ? "email_code_invalid" : "phone_code_invalid");
    if (body.country) await this.residence?.setAtRegistration(userId, body.country);
    await this.openAccounts(userId, "real");
    await this.recordSignIn(userId, { method: "register", succeeded: true }, client);
    return this.startSession(userId, "real");
  }

  /**
   * Signs in by e-mail or phone and password; a captcha after repeated failures. The attempt is
   * recorded before the password is checked and counted after, so parallel guesses cannot all
   * pass the check while the first ones are still hashing: of any number of simultaneous
   * attempts at most `loginFailuresMax` reach the password without a captcha.
   */
  async login(body: EndpointBody<typeof login>, client?: SignInClient): Promise<SessionData> {
    const account = normalizeAccount(body.account);
    const since = new Date(this.now() - loginFailureWindowMs);
    // Counted first, and the count includes this attempt and every one recorded before it.
    const attemptId = await this.repository.insertLoginFailure(account, new Date(this.now()));
    if ((await this.repository.loginFailureCount(account, since)) > loginFailuresMax) {
      // With CAPTCHA=off (scripted use) the account simply waits out the window.
      if (!this.captchaRequired) throw new AppError("rate_limited");
      await this.requireCaptcha(body);
    }
    const user = await this.repository.loginAccount(
      account.includes("@") ? "email" : "phone",
      account,
    );
    const valid = await verifyPassword(body.password, user?.password_hash ?? (await this.decoy()));
    if (!user || !user.password_hash || !valid) {
      // The attempt stays recorded as a failure. Failures older than the window count for
      // nothing: drop them as new ones come.
      await this.repository.deleteLoginFailures(account, { atOrBefore: since });
      if (user) {
        await this.recordSignIn(
          user.id,
          { method: "password", succeeded: false, failure: "password" },
          client,
        );
      }
      throw new AppError("invalid_credentials");
    }
    // The password was right: with two-factor on, a code is needed too. Until it comes, this
    // attempt stays counted as a failure (the password alone never signs in).
    await this.requireSecondFactor(user.id, body.totpCode, "password", client);
    // A success clears this attempt and the failures before it (not attempts still running).
    await this.repository.deleteLoginFailures(account, { upToId: attemptId });
    // Idempotent: heals a registration whose account opening failed half-way.
    await this.openAccounts(user.id, "real");
    await this.recordSignIn(user.id, { method: "password", succeeded: true }, client);
    return this.startSession(user.id, "real");
  }

  /** Creates a demo-only user, or resumes one by its resume key. */
  async demoLogin(
    body: EndpointBody<typeof demoLogin>,
    client?: SignInClient,
  ): Promise<SessionData & { resumeKey: string }> {
    if (body.resumeKey) {
      const userId = await this.repository.demoUserIdByName(sha256Hex(body.resumeKey));
      if (userId === undefined) throw new AppError("invalid_credentials");
      await this.openAccounts(userId, "demo");
      await this.recordSignIn(userId, { method: "demo", succeeded: true }, client);
      return { ...(await this.startSession(userId, "demo")), resumeKey: body.resumeKey };
    }
    const resumeKey = randomBytes(24).toString("base64url");
    const userId = await this.repository.insertUser({
      kind: "demo",
      email: null,
      phone: null,
      wallet_address: null,
      demo_name: sha256Hex(resumeKey),
      password_hash: null,
      trade_password_hash: null,
      nickname: "Demo",
      invite_code: newInviteCode(),
      inviter_id: null,
      demo_only: true,
      created_at: new Date(this.now()),
    });
    if (userId === null) throw new Error("a new demo user collided with an existing one");
    await this.openAccounts(userId, "demo");
    await this.recordSignIn(userId, { method: "demo", succeeded: true }, client);
    return { ...(await this.startSession(userId, "demo")), resumeKey };
  }

  /** A single-use nonce and the EIP-4361 message for a wallet to sign. */
  async walletNonce(origin: SiweOrigin, address: string, chainId: number) {
    const nonce = await createWalletNonce(this.repository, this.now(), origin, address, chainId);
    return {
      nonce: nonce.nonce,
      message: nonce.message,
      domain: origin.domain,
      uri: origin.uri,
      issuedAt: nonce.issuedAt.toISOString(),
      expiresAt: nonce.expiresAt.toISOString(),
    };
  }

  /** Signs in with a signed EIP-4361 message; the first sign-in of an address creates its user. */
  async walletLogin(
    origin: SiweOrigin,
    body: EndpointBody<typeof walletLogin>,
    client?: SignInClient,
  ): Promise<SessionData> {
    const address = await verifyWalletSignIn(this.repository, this.now(), origin, body);
    let userId = await this.repository.userIdByWallet(address);
    if (userId === undefined) {
      let inviterId: bigint | null = null;
      if (body.inviteCode) {
        const inviter = await this.repository.userIdByInviteCode(body.inviteCode);
        if (inviter === undefined) throw new AppError("invite_code_invalid");
        inviterId = inviter;
      }
      userId =
        (await this.repository.insertUser({
          kind: "wallet",
          email: null,
          phone: null,
          wallet_address: address,
          demo_name: null,
          password_hash: null,
          trade_password_hash: null,
          nickname: `${address.slice(0, 6)}…${address.slice(-4)}`,
          invite_code: newInviteCode(),
          inviter_id: inviterId,
          created_at: new Date(this.now()),
        })) ??
        // Two first sign-ins of one address at once: the other one created the user.
        (await this.repository.userIdByWallet(address));
      if (userId === undefined) throw new Error(`wallet user ${address} vanished`);
    } else {
      // The signature proves the wallet; with two-factor on, a code is needed too (and, the
      // nonce being spent, a new signature with it).
      await this.requireSecondFactor(userId, body.totpCode, "wallet", client);
    }
    await this.openAccounts(userId, "real");
    await this.recordSignIn(userId, { method: "wallet", succeeded: true }, client);
    return this.startSession(userId, "real");
  }

  /** Sets a forgotten password by e-mailed code, and signs the user out everywhere. */
  async resetPassword(body: EndpointBody<typeof resetPassword>): Promise<void> {
    const email = body.email.toLowerCase();
    await this.consumeEmailCode(email, "reset_password", body.emailCode);
    const userId = await this.repository.userIdByEmail(email);
    if (userId === undefined) throw new AppError("email_code_invalid");
    await this.replacePassword(userId, body.password);
    await this.repository.deleteLoginFailures(email);
  }

  /** Ends this session, or every session of the user. */
  async logout(user: AuthUser, everywhere: boolean | undefined): Promise<void> {
    await this.sessions.revoke(user.id, everywhere ? undefined : user.sessionTokenHash);
  }

  // The signed-in user.

  async me(user: AuthUser) {
    return toUserInfo(await this.repository.user(user.id), user.mode);
  }

  /**
   * Who a transfer would reach, for the sender to check before confirming: the nickname masked
   * (first and last character kept), and whether the user exists only in demo. Undefined for
   * an unknown id.
   */
  async transferRecipient(
    userId: bigint,
  ): Promise<{ maskedName: string; demoOnly: boolean } | undefined> {
    const row = await this.repository.findUser(userId);
    if (!row) return undefined;
    return { maskedName: maskName(row.nickname), demoOnly: row.demo_only };
  }

  async updateMe(
    user: AuthUser,
    body: EndpointBody<typeof updateMe>,
    avatars?: { owns(uploadId: string, ownerId: string): Promise<boolean> },
  ) {
    if (body.avatarUploadId) {
      // Only the user's own upload made for an avatar; any other id is "not found".
      if (!avatars || !(await avatars.owns(body.avatarUploadId, String(user.id)))) {
        throw new AppError("upload_not_found");
      }
    }
    if (body.nickname !== undefined || body.avatar !== undefined) {
      await this.repository.updateProfile(user.id, {
        ...(body.nickname !== undefined ? { nickname: body.nickname } : {}),
        ...(body.avatar !== undefined ? { avatar: body.avatar } : {}),
      });
    }
    if (body.avatarUploadId !== undefined) {
      await this.repository.setAvatarUpload(user.id, body.avatarUploadId);
    } else if (body.avatar !== undefined) {
      // Picking a preset replaces an uploaded avatar.
      await this.repository.setAvatarUpload(user.id, null);
    }
    return this.me(user);
  }

  /** Sets or removes the anti-phishing code (the route checked the trade password or 2FA). */
  async setAntiPhishingCode(user: AuthUser, code: string | null) {
    await this.repository.setAntiPhishingCode(user.id, code);
    return this.me(user);
  }

  /** Changes the login password given the current one; every older session ends. */
  async changePassword(
    user: AuthUser,
    currentPassword: string,
    password: string,
  ): Promise<SessionData> {
    const hash = await this.repository.passwordHash(user.id);
    // Wallet and demo users have no login password to change.
    if (!hash) throw new AppError("forbidden");
    if (!(await verifyPassword(currentPassword, hash))) throw new AppError("password_incorrect");
    await this.replacePassword(user.id, password);
    return this.startSession(user.id, user.mode);
  }

  async switchMode(user: AuthUser, mode: "real" | "demo") {
    if (user.demoOnly && mode === "real") throw new AppError("demo_not_allowed");
    if (mode === "demo") await this.openAccounts(user.id, "demo");
    await this.sessions.switchMode(user.id, user.sessionTokenHash, mode);
    return toUserInfo(await this.repository.user(user.id), mode);
  }

  /** True when the user exists and may hold real money (is not demo-only): operator deposits. */
  async holdsRealMoney(userId: bigint): Promise<boolean> {
    return (await this.repository.findUser(userId))?.demo_only === false;
  }

  /** The operator's view of sent and kept e-mails, newest first. */
  async outbox(
    query: EndpointQuery<typeof operatorOutbox>,
  ): Promise<EndpointData<typeof operatorOutbox>> {
    const rows = await this.repository.outboxEmails(query.limit, query.to?.toLowerCase());
    return {
      emails: rows.map((row) => ({
        id: String(row.id),
        to: row.to_address,
        subject: row.subject,
        text: row.body_text,
        delivery: row.delivery,
        createdAt: row.created_at.toISOString(),
      })),
    };
  }

  // Shared steps.

  /**
   * Asks for (and checks) the second factor of a user who turned two-factor sign-in on. A wrong
   * code is a failed sign-in in the history; a missing one is only the next step of the form.
   */
  private async requireSecondFactor(
    userId: bigint,
    code: string | undefined,
    method: SignInAttempt["method"],
    client: SignInClient | undefined,
  ): Promise<void> {
    if (!this.twoFactor || !(await this.twoFactor.enabled(userId))) return;
    if (code === undefined) throw new AppError("two_factor_required");
    try {
      await this.twoFactor.verify(userId, code);
    } catch (error) {
      await this.recordSignIn(userId, { method, succeeded: false, failure: "two_factor" }, client);
      throw error;
    }
  }

  private async recordSignIn(
    userId: bigint,
    attempt: SignInAttempt,
    client: SignInClient | undefined,
  ): Promise<void> {
    await this.signInHistory?.record(userId, attempt, client);
  }

  /**
   * Checks the login password of a user who has one (wallet users have none: their session is
   * the proof); used before changing security settings.
   */
  async confirmPassword(user: AuthUser, password: string | undefined): Promise<void> {
    const hash = await this.repository.passwordHash(user.id);
    if (!hash) return;
    if (!password || !(await verifyPassword(password, hash))) {
      throw new AppError("password_incorrect");
    }
  }

  /** What an authenticator app shows as the account: e-mail, phone, wallet or id. */
  async accountLabel(user: AuthUser): Promise<string> {
    const info = toUserInfo(await this.repository.user(user.id), user.mode);
    return info.username;
  }

  /** Opens a session and describes it as the sign-in endpoints answer. */
  private async startSession(userId: bigint, mode: "real" | "demo"): Promise<SessionData> {
    // A frozen user signs in nowhere (issue 17): e-mail, phone, wallet or demo resume alike.
    if (await this.repository.isFrozen(userId)) throw new AppError("account_frozen");
    const session = await this.sessions.open(userId, mode);
    return {
      token: session.token,
      expiresAt: session.expiresAt.toISOString(),
      user: toUserInfo(await this.repository.user(userId), mode),
    };
  }

  /** The one way a login password changes (change and reset): new hash, every session ends. */
  private async replacePassword(userId: bigint, password: string): Promise<void> {
    await this.repository.setPasswordHash(userId, await hashPassword(password, this.passwordCost));
    await this.sessions.revoke(userId);
  }

  private async openAccounts(userId: bigint, mode: "real" | "demo") {
    await this.accounts?.open(userId, mode);
    if (this.accounts?.link) {
      const inviterId = await this.repository.inviterIdOf(userId);
      if (inviterId !== null) await this.accounts.link(inviterId, userId, mode);
    }
  }

  private async requireCaptcha(body: CaptchaFields) {
    if (!body.captchaId || !body.captchaAnswer) throw new AppError("captcha_required");
    if (!(await this.captchas.consume(this.now(), body.captchaId, body.captchaAnswer))) {
      throw new AppError("captcha_invalid");
    }
  }

  /**
   * Makes a 6-digit code for an e-mail address or phone number (both live in `email_codes`:
   * the address column holds either), storing only its hash; the code itself is returned once.
   */
  private async issueCode(
    address: string,
    purpose: "register" | "reset_password",
    expiresAt: Date,
  ): Promise<string> {
    await this.repository.deleteEmailCodesExpiredBefore(address, new Date(this.now() - 24 * hour));
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await this.repository.insertEmailCode({
      email: address,
      purpose,
      codeHash: codeHash(address, purpose, code),
      createdAt: new Date(this.now()),
      expiresAt,
    });
    return code;
  }

  /** Uses up the newest live code for an address or number; wrong guesses count against it. */
  private async consumeEmailCode(
    email: string,
    purpose: "register" | "reset_password",
    code: string,
    failure: "email_code_invalid" | "phone_code_invalid" = "email_code_invalid",
  ) {
    const row = await this.repository.liveEmailCode(email, purpose, new Date(this.now()));
    if (!row || row.attempts >= emailCodeAttemptsMax) throw new AppError(failure);
    const matches = row.codeHash === codeHash(email, purpose, code);
    await this.repository.recordEmailCodeAttempt(
      row.id,
      row.attempts + 1,
      matches ? new Date(this.now()) : undefined,
    );
    if (!matches) throw new AppError(failure);
  }

  private decoy() {
    return (this.decoyHash ??= hashPassword(randomBytes(12).toString("hex"), this.passwordCost));
  }
}

/** How the app builds the auth service: over its database, with a mailer of its own. */
export interface AuthServiceOptions {
  database: Database;
  now: () => number;
  log: FastifyBaseLogger;
  /** log2 of scrypt's N for passwords (default 17); tests use a low cost. */
  passwordCost?: number;
  /** "off" skips captchas (scripted local use and tests); default "required". */
  captcha?: "required" | "off";
  /** Work per captcha: the largest secret number (CAPTCHA_COST); default 250,000. */
  captchaCost?: number;
  /** `smtp://…` URL for e-mail; unset keeps every e-mail in the operator's outbox only. */
  smtpUrl?: string;
  /** Sender of e-mails, e.g. `Candor <no-reply@example.com>`. */
  mailFrom?: string;
  /** An SMS provider's adapter; unset keeps text messages in the operator's outbox only. */
  smsProvider?: SmsProvider;
  accounts?: AccountOpener;
  /**
   * The cluster's session bus (`cluster/session-bus.ts`): revocations and mode switches made
   * on another node reach this one at once. Unset in a single process.
   */
  sessionBus?: SessionBus;
}

/** The auth service over SQL and SMTP; `close()` ends the SMTP connection pool. */
export function createAuthService(options: AuthServiceOptions): AuthService & { close(): void } {
  const repository = new AuthRepository(options.database);
  const mailer = createMailer({
    outbox: repository,
    antiPhishingCodes: repository,
    now: options.now,
    log: options.log,
    smtpUrl: options.smtpUrl,
    mailFrom: options.mailFrom,
  });
  const sms = createSmsSender({
    outbox: repository,
    now: options.now,
    log: options.log,
    provider: options.smsProvider,
  });
  const service = new AuthService({
    repository,
    mailer,
    sms,
    now: options.now,
    passwordCost: options.passwordCost ?? defaultPasswordCost,
    captchaRequired: options.captcha !== "off",
    captchaCost: options.captchaCost,
    accounts: options.accounts,
    twoFactor: new TwoFactor(options.database, options.now),
    signInHistory: new SignInHistory(options.database, options.now),
    residence: new Residence(options.database, options.now),
    sessionDirectory: (sessions) => new SessionDirectory(options.database, sessions, options.now),
    sessionBus: options.sessionBus,
  });
  return Object.assign(service, {
    close: () => {
      service.sessions.close();
      mailer.close();
    },
  });
}
