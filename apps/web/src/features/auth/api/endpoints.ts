import { endpointTable } from "../../../lib/api-endpoints.ts";

/** The endpoints sign-in and the signed-in user call (contract: auth.ts). */
export const authEndpoints = endpointTable({
  getCaptcha: { method: "GET", path: "/api/v1/auth/captcha", auth: "none" },
  getAgreement: { method: "GET", path: "/api/v1/auth/agreement", auth: "none" },
  sendEmailCode: { method: "POST", path: "/api/v1/auth/email-codes", auth: "none" },
  register: { method: "POST", path: "/api/v1/auth/register", auth: "none" },
  login: { method: "POST", path: "/api/v1/auth/login", auth: "none" },
  demoLogin: { method: "POST", path: "/api/v1/auth/demo", auth: "none" },
  walletNonce: { method: "GET", path: "/api/v1/auth/wallet/nonce", auth: "none" },
  walletLogin: { method: "POST", path: "/api/v1/auth/wallet/login", auth: "none" },
  resetPassword: { method: "POST", path: "/api/v1/auth/password-reset", auth: "none" },
  logout: { method: "POST", path: "/api/v1/auth/logout", auth: "user" },
  updateMe: { method: "PATCH", path: "/api/v1/me", auth: "user" },
  switchMode: { method: "PUT", path: "/api/v1/me/mode", auth: "user" },
});
