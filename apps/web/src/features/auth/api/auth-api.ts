import {
  demoLogin,
  getAgreement,
  getCaptcha,
  login as loginEndpoint,
  logout as logoutEndpoint,
  register as registerEndpoint,
  resetPassword as resetPasswordEndpoint,
  sendEmailCode as sendEmailCodeEndpoint,
  switchMode as switchModeEndpoint,
  updateMe,
  walletLogin as walletLoginEndpoint,
  walletNonce,
  type SessionData,
  type UserInfo,
} from "@candor/contract";
import { callEndpoint, type EndpointCallInput } from "../../../lib/api-client.ts";
import {
  demoResume,
  rememberDemoResume,
  type Session,
  type SessionUser,
} from "../../../lib/session.ts";

/** The sign-in calls of the API (issue 5, `packages/contract/src/auth.ts`), typed by it. */

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

function toSession(data: SessionData): Session {
  return { token: data.token, user: toSessionUser(data.user) };
}

export const fetchCaptcha = () => callEndpoint(getCaptcha);

export const fetchAgreement = () => callEndpoint(getAgreement);

export async function login(body: EndpointCallInput<typeof loginEndpoint>["body"]) {
  return toSession(await callEndpoint(loginEndpoint, { body }));
}

/** Signs in as the demo user of this browser (resumed when its key is cached), or a new one. */
export async function loginAsDemo(): Promise<Session> {
  const resumeKey = demoResume();
  const data = await callEndpoint(demoLogin, { body: resumeKey ? { resumeKey } : {} });
  rememberDemoResume(data.resumeKey);
  return toSession(data);
}

export function sendEmailCode(body: EndpointCallInput<typeof sendEmailCodeEndpoint>["body"]) {
  return callEndpoint(sendEmailCodeEndpoint, { body });
}

export async function register(body: EndpointCallInput<typeof registerEndpoint>["body"]) {
  return toSession(await callEndpoint(registerEndpoint, { body }));
}

export function resetPassword(body: EndpointCallInput<typeof resetPasswordEndpoint>["body"]) {
  return callEndpoint(resetPasswordEndpoint, { body });
}

export function logout() {
  return callEndpoint(logoutEndpoint, { body: { everywhere: false } });
}

/** Switches this session between real and demo money; answers the updated user. */
export async function switchMode(mode: "real" | "demo"): Promise<SessionUser> {
  return toSessionUser(await callEndpoint(switchModeEndpoint, { body: { mode } }));
}

/** Changes the nickname; answers the updated user. */
export async function rename(nickname: string): Promise<SessionUser> {
  return toSessionUser(await callEndpoint(updateMe, { body: { nickname } }));
}

/** Starts wallet sign-in: the server's single-use nonce and the EIP-4361 message to sign. */
export function fetchWalletNonce(address: string, chainId: number) {
  return callEndpoint(walletNonce, { query: { address, chainId } });
}

export async function walletLogin(input: { address: string; message: string; signature: string }) {
  return toSession(await callEndpoint(walletLoginEndpoint, { body: { ...input, walletType: 2 } }));
}
