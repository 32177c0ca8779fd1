import { apiFetch } from "../../../lib/api-client.ts";
import type { Session, SessionUser } from "../../../lib/session.ts";

/**
 * The sign-in calls of the API (issue 5). Paths live here only, so this is the one place to
 * follow the auth contract as it settles.
 */

/** What a successful sign-in answers: the bearer token and the user. */
interface SignInData {
  token: string;
  user: {
    id: string | number;
    username: string;
    nickname?: string | null;
    isVirtual?: boolean;
    is_virtual?: 0 | 1 | boolean;
    mode?: "real" | "demo";
  };
}

function toSession(data: SignInData): Session {
  const virtual =
    data.user.mode === "demo" || data.user.isVirtual === true || Number(data.user.is_virtual) === 1;
  const user: SessionUser = {
    id: String(data.user.id),
    username: data.user.username,
    is_virtual: virtual ? 1 : 0,
    ...(data.user.nickname ? { nickname: data.user.nickname } : {}),
  };
  return { token: data.token, user };
}

const post = <T>(path: string, body: unknown, auth = false) =>
  apiFetch<T>(path, { method: "POST", body: JSON.stringify(body), auth });

/** A single-use captcha: its id and an SVG image. */
export interface Captcha {
  captchaId: string;
  svg: string;
}

export function fetchCaptcha(): Promise<Captcha> {
  return apiFetch<Captcha>("/auth/captcha");
}

export function fetchAgreement(): Promise<{ title: string; body: string }> {
  return apiFetch("/auth/agreement");
}

export async function login(input: { account: string; password: string }): Promise<Session> {
  return toSession(await post<SignInData>("/auth/login", input));
}

export async function loginAsDemo(): Promise<Session> {
  return toSession(await post<SignInData>("/auth/demo", {}));
}

export function sendEmailCode(input: {
  email: string;
  purpose: "register" | "reset_password";
  captchaId: string;
  captchaText: string;
}): Promise<unknown> {
  return post("/auth/email-codes", input);
}

export interface RegisterInput {
  account: string;
  password: string;
  passwordConfirm: string;
  emailCode: string;
  captchaId: string;
  captchaText: string;
  inviteCode?: string;
  agreement: true;
}

export async function register(input: RegisterInput): Promise<Session> {
  return toSession(await post<SignInData>("/auth/register", input));
}

export function resetPassword(input: {
  email: string;
  emailCode: string;
  password: string;
  passwordConfirm: string;
}): Promise<unknown> {
  return post("/auth/password-reset", input);
}

export function logout(): Promise<unknown> {
  return post("/auth/logout", {}, true);
}

/** A single-use nonce for an EIP-4361 message. */
export function fetchWalletNonce(): Promise<{ nonce: string }> {
  return post("/auth/wallet/nonce", {});
}

export async function walletLogin(input: {
  address: string;
  message: string;
  signature: string;
}): Promise<Session> {
  return toSession(await post<SignInData>("/auth/wallet", { ...input, wallet_type: 2 }));
}
