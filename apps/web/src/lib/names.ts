import type { TFunction } from "i18next";
import en from "../locales/en.json";

/*
 * Names of things the server sends by id (instruments, system accounts, the demo user), in the
 * interface language: the server sends ids, the web translates them (issue 18).
 */

type InstrumentNameId = keyof typeof en.names.instrument;
type AccountNameId = keyof typeof en.names.account;

/** An instrument's name: our translation when we have one, else the server's (brand) name. */
export function instrumentName(
  instrument: { id: string; names: { en: string; "zh-Hant": string } },
  t: TFunction,
  language: string,
): string {
  if (instrument.id in en.names.instrument) {
    return t(`names.instrument.${instrument.id as InstrumentNameId}`);
  }
  return language === "zh-Hant" ? instrument.names["zh-Hant"] : instrument.names.en;
}

/**
 * A statement's counterparty: a system account ("system:demo_faucet"), "self", "user" or
 * "unknown", named in the interface language; an id we do not know is shown as it is.
 */
export function accountName(counterparty: string, t: TFunction): string {
  const id = counterparty.startsWith("system:")
    ? counterparty.slice("system:".length)
    : counterparty;
  return id in en.names.account ? t(`names.account.${id as AccountNameId}`) : counterparty;
}

/** The server's default nickname of a demo-only user; shown in the interface language. */
export const demoNicknameDefault = "Demo";

/** The nickname to show: a demo user's default one is translated; others are the user's own. */
export function displayNickname(
  user: { nickname?: string; username: string; demoOnly?: boolean },
  t: TFunction,
): string {
  if (user.demoOnly && user.nickname === demoNicknameDefault) return t("names.demoUser");
  return user.nickname ?? user.username;
}
