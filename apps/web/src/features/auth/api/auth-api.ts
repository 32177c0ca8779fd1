import type { SessionData, UserInfo } from "@candor/contract";
import { callEndpoint, type EndpointCallInput } from "../../../lib/api-client.ts";
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
  /** The captcha on screen; refetched for a new one after each use (a captcha is single use). */
  captcha: () => [...authKeys.all, "captcha"] as const,
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

export const fetchCaptcha = () => callEndpoint(authEndpoints.getCaptcha);

export const fetchAgreement = () => callEndpoint(authEndpoints.getAgreement);

export async function login(body: BodyOf<"login">) {
  return toSession(await callEndpoint(authEndpoints.login, { body }));
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

export function sendEmailCode(body: BodyOf<"sendEmailCode">) {
  return callEndpoint(authEndpoints.sendEmailCode, { body });
}

export async function register(body: BodyOf<"register">) {
  return toSession(await callEndpoint(authEndpoints.register, { body }));
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

export async function walletLogin(input: { address: string; message: string; signature: string }) {
  return toSession(
    await callEndpoint(authEndpoints.walletLogin, { body: { ...input, walletType: 2 } }),
  );
}
