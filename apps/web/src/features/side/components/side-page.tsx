import { bcp47ByLocale, locales, nativeNameByLocale, type Locale } from "@candor/contract/locales";
import { Button, List, Tag } from "antd-mobile";
import {
  BellOutline,
  FileOutline,
  GiftOutline,
  GlobalOutline,
  LockOutline,
  MessageOutline,
  SetOutline,
  StarOutline,
  TeamOutline,
  TextOutline,
  UserContactOutline,
  UserOutline,
} from "antd-mobile-icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { setLocale } from "../../../lib/i18n.ts";
import { displayNickname } from "../../../lib/names.ts";
import { isDemo, useSession } from "../../../lib/session.ts";

type ShortcutKey =
  | "security"
  | "identity"
  | "invite"
  | "vip"
  | "activity"
  | "notices"
  | "news"
  | "statement"
  | "settings"
  | "support";

/** The shortcuts that need an account, then those anyone may open (spec: index/side). */
const accountShortcuts: readonly { key: ShortcutKey; to: string; icon: ReactNode }[] = [
  { key: "security", to: "/security", icon: <LockOutline /> },
  { key: "identity", to: "/identity", icon: <UserContactOutline /> },
  { key: "invite", to: "/invite", icon: <TeamOutline /> },
  { key: "vip", to: "/vip", icon: <StarOutline /> },
  { key: "activity", to: "/activity", icon: <GiftOutline /> },
  { key: "statement", to: "/assets/statement", icon: <FileOutline /> },
];
const openShortcuts: readonly { key: ShortcutKey; to: string; icon: ReactNode }[] = [
  { key: "notices", to: "/notices", icon: <BellOutline /> },
  { key: "news", to: "/news", icon: <TextOutline /> },
  { key: "settings", to: "/settings", icon: <SetOutline /> },
  { key: "support", to: "/support", icon: <MessageOutline /> },
];

/**
 * The side page (spec: index/side, opened from the home header; its navigation bar has no
 * title): who is signed in and in which mode, the account shortcuts, the ones anyone may open,
 * and the language. Signed out it offers log-in and registration instead of the account ones.
 */
export function SidePage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const shortcut = (entry: { key: ShortcutKey; to: string; icon: ReactNode }) => (
    <List.Item
      key={entry.key}
      prefix={<span aria-hidden="true">{entry.icon}</span>}
      clickable
      arrowIcon
      onClick={() => void navigate(entry.to)}
      data-testid={`side-${entry.key}`}
    >
      {t(`side.shortcuts.${entry.key}`)}
    </List.Item>
  );
  return (
    <section className="page" aria-labelledby="side-title">
      <h1 id="side-title" className="visually-hidden">
        {t("side.title")}
      </h1>
      {session ? (
        <div className="side-account" data-testid="side-account">
          <UserOutline aria-hidden="true" className="side-avatar" />
          <div>
            <p className="side-name">{displayNickname(session.user, t)}</p>
            <p className="hint">
              {t("side.userId", { id: session.user.id })}{" "}
              <Tag color={isDemo(session) ? "warning" : "primary"} fill="outline">
                {isDemo(session) ? t("mode.demo") : t("mode.real")}
              </Tag>
            </p>
          </div>
        </div>
      ) : (
        <div className="side-account" data-testid="side-signed-out">
          <p>{t("side.signedOut")}</p>
          <div className="side-actions">
            <Button color="primary" size="small" onClick={() => void navigate("/login")}>
              {t("side.signIn")}
            </Button>
            <Button size="small" onClick={() => void navigate("/register")}>
              {t("side.register")}
            </Button>
          </div>
        </div>
      )}
      {session ? <List header={t("side.account")}>{accountShortcuts.map(shortcut)}</List> : null}
      <List header={t("side.more")}>
        {openShortcuts.map(shortcut)}
        <List.Item
          prefix={
            <span aria-hidden="true">
              <GlobalOutline />
            </span>
          }
          extra={
            <select
              className="native-select"
              aria-label={t("side.shortcuts.language")}
              data-testid="side-language"
              value={i18n.language}
              onChange={(event) => void setLocale(event.target.value as Locale)}
            >
              {locales.map((locale) => (
                <option key={locale} value={locale} lang={bcp47ByLocale[locale]}>
                  {nativeNameByLocale[locale]}
                </option>
              ))}
            </select>
          }
        >
          {t("side.shortcuts.language")}
        </List.Item>
      </List>
    </section>
  );
}
