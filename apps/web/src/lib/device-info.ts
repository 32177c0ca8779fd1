import { localCache } from "./local-cache.ts";

/** The device the app runs on, stored each time the app is shown (spec §2). */
export interface DeviceInfo {
  /** "iOS", "Android", "Windows", "macOS", "Linux", "ChromeOS" or "unknown". */
  platform: string;
  /** A model such as "iPhone" or "Pixel 8"; "unknown" when the browser does not say. */
  model: string;
}

/** Reads platform and model from a user-agent string. */
export function parseUserAgent(userAgent: string): DeviceInfo {
  const ua = userAgent;
  const appleDevice = /\b(iPhone|iPad|iPod)\b/.exec(ua);
  if (appleDevice) return { platform: "iOS", model: appleDevice[1]! };
  const android = /Android[^;)]*;\s*([^;)]*?)(?:\s+Build\/[^;)]*)?\)/.exec(ua);
  if (/Android/.test(ua)) {
    const model = android?.[1]?.trim();
    return { platform: "Android", model: model && model !== "K" ? model : "unknown" };
  }
  if (/CrOS/.test(ua)) return { platform: "ChromeOS", model: "unknown" };
  if (/Windows/.test(ua)) return { platform: "Windows", model: "PC" };
  if (/Macintosh|Mac OS X/.test(ua)) return { platform: "macOS", model: "Mac" };
  if (/Linux/.test(ua)) return { platform: "Linux", model: "unknown" };
  return { platform: "unknown", model: "unknown" };
}

interface UserAgentData {
  platform?: string;
  getHighEntropyValues?(hints: string[]): Promise<{ platform?: string; model?: string }>;
}

/** Reads the device from `navigator.userAgentData` when the browser offers it, else the UA. */
export async function readDeviceInfo(): Promise<DeviceInfo> {
  const fromUa = parseUserAgent(navigator.userAgent);
  const data = (navigator as Navigator & { userAgentData?: UserAgentData }).userAgentData;
  if (!data?.getHighEntropyValues) return fromUa;
  try {
    const values = await data.getHighEntropyValues(["platform", "model"]);
    return {
      platform: values.platform || data.platform || fromUa.platform,
      model: values.model || fromUa.model,
    };
  } catch {
    return fromUa;
  }
}

const deviceKey = "device";

/** Stores the device now and on every later show of the app (visibilitychange). */
export function rememberDeviceOnShow(): () => void {
  const store = () => void readDeviceInfo().then((info) => localCache().set(deviceKey, info));
  const onChange = () => {
    if (document.visibilityState === "visible") store();
  };
  store();
  document.addEventListener("visibilitychange", onChange);
  return () => document.removeEventListener("visibilitychange", onChange);
}

/** The device last stored, if any. */
export function storedDeviceInfo(): DeviceInfo | undefined {
  return localCache().get<DeviceInfo>(deviceKey);
}
