import type { SessionData, UserInfo } from "@candor/contract";
import i18n from "i18next";
import { ApiError, callEndpoint, type EndpointCallInput } from "../../../lib/api-client.ts";
import { solveProofOfWork } from "../lib/proof-of-work.ts";
import { authEndpoints } from "./endpoints.ts";
import {
  demoResume,
  rememberDemoResume,
  type Session,
  type SessionUser,
} from "../../../lib/session.ts";

/** The sign-in calls of the API (issue 5, `packages/contract/src/auth.ts`), typed by it. */

/** Every query key of sign-in. */
export const authKeys = {
  all: ["auth"] as const,
  agreement: (language: string) => [...authKeys.all, "agreement", language] as const,
};

/** What a call of endpoint `name` sends as its body. */
type BodyOf<K extends keyof typeof authEndpoints> = EndpointCallInput<
  NonNullable<(typeof authEndpoints)[K]["endpoint"]>
>["body"];

/** The cached user of spec §3 from the API's user. */
export function toSessionUser(user: UserInfo): SessionUser {
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname,
    is_virtual: user.isVirtual ? 1 : 0,
    demoOnly: user.demoOnly,
  };
}

/** The session the app keeps: the user only; the token stays in the server's HttpOnly cookie. */
function toSession(data: SessionData): Session {
  return { user: toSessionUser(data.user) };
}

/**
 * A fresh captcha, solved: the server's proof-of-work challenge worked out in this browser
 * (a fraction of a second; nobody reads or types anything). Single use: one per request.
 */
export async function solvedCaptcha(): Promise<{ captchaId: string; captchaAnswer: string }> {
  const challenge = await callEndpoint(authEndpoints.getCaptcha);
  const answer = await solveProofOfWork(challenge);
  if (answer === null) throw new ApiError(0, "captcha_invalid", i18n.t("errors.network"));
  return { captchaId: challenge.captchaId, captchaAnswer: answer };
}

export const fetchAgreement = () => callEndpoint(authEndpoints.getAgreement);

/**
 * Signs in; after repeated failures the server asks for a captcha, which is solved and sent
 * with the same attempt again (the user does nothing more).
 */
export async function login(body: NonNullable<BodyOf<"login">>) {
  try {
    return toSession(await callEndpoint(authEndpoints.login, { body }));
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "captcha_required") throw error;
    const captcha = await solvedCaptcha();
    return toSession(await callEndpoint(authEndpoints.login, { body: { ...body, ...captcha } }));
  }
}

/** Signs in as the demo user of this browser (resumed when its key is cached), or a new one. */
export async function loginAsDemo(): Promise<Session> {
  const resumeKey = demoResume();
  const data = await callEndpoint(authEndpoints.demoLogin, {
    body: resumeKey ? { resumeKey } : {},
  });
  rememberDemoResume(data.resumeKey);
  return toSession(data);
}

type WithoutCaptcha<T> = Omit<NonNullable<T>, "captchaId" | "captchaAnswer">;

/** Asks for an e-mailed code, with a freshly solved captcha. */
export async function sendEmailCode(body: WithoutCaptcha<BodyOf<"sendEmailCode">>) {
  const captcha = await solvedCaptcha();
  return callEndpoint(authEndpoints.sendEmailCode, { body: { ...body, ...captcha } });
}

/** Registers, with a freshly solved captcha. */
export async function register(body: WithoutCaptcha<BodyOf<"register">>) {
  const captcha = await solvedCaptcha();
  return toSession(await callEndpoint(authEndpoints.register, { body: { ...body, ...captcha } }));
}

export function resetPassword(body: BodyOf<"resetPassword">) {
  return callEndpoint(authEndpoints.resetPassword, { body });
}

export function logout() {
  return callEndpoint(authEndpoints.logout, { body: { everywhere: false } });
}

/** Switches this session between real and demo money; answers the updated user. */
export async function switchMode(mode: "real" | "demo"): Promise<SessionUser> {
  return toSessionUser(await callEndpoint(authEndpoints.switchMode, { body: { mode } }));
}

/** Changes the nickname; answers the updated user. */
export async function rename(nickname: string): Promise<SessionUser> {
  return toSessionUser(await callEndpoint(authEndpoints.updateMe, { body: { nickname } }));
}

/** Starts wallet sign-in: the server's single-use nonce and the EIP-4361 message to sign. */
export function fetchWalletNonce(address: string, chainId: number) {
  return callEndpoint(authEndpoints.walletNonce, { query: { address, chainId } });
}

export async function walletLogin(input: {
  address: string;
  message: string;
  signature: string;
  totpCode?: string;
}) {
  return toSession(
    await callEndpoint(authEndpoints.walletLogin, { body: { ...input, walletType: 2 } }),
  );
}
