import { bcp47ByLocale, locales, nativeNameByLocale, type Locale } from "@candor/contract/locales";
import { Avatar, Button, Input, List, Popup, Switch } from "antd-mobile";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { setLocale } from "../../../lib/i18n.ts";
import { maskMiddle } from "../../../lib/mask.ts";
import { displayNickname } from "../../../lib/names.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { setTheme, useThemeChoice, type ThemeChoice } from "../../../lib/theme.ts";
import { confirm } from "../../../lib/dialogs.tsx";

/**
 * Settings (spec: pages/assets/shezhi): avatar, nickname, language, theme, real/demo switch and
 * log out. Signed out, only the language and theme are shown, with a way to log in.
 */
export function SettingsPage({
  onSwitchMode,
  onLogout,
  onRename,
  about,
  avatar,
}: {
  /** Saves a new nickname; resolves true when it was saved. */
  onRename: (nickname: string) => Promise<boolean>;
  onSwitchMode: (toDemo: boolean) => Promise<void>;
  onLogout: () => Promise<void>;
  /** The server's state, shown at the end. */
  about?: ReactNode;
  /** The profile picture with its upload (signed in only); the preset picture without it. */
  avatar?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const theme = useThemeChoice();
  const navigate = useNavigate();
  const [switching, setSwitching] = useState(false);
  const [nicknameDraft, setNicknameDraft] = useState<string | null>(null);
  const demo = isDemo(session);
  const name = session ? displayNickname(session.user, t) : "";

  const switchMode = async (toDemo: boolean) => {
    setSwitching(true);
    try {
      await onSwitchMode(toDemo);
    } finally {
      setSwitching(false);
    }
  };
  const logout = async () => {
    if (await confirm(t("settings.logoutConfirm"))) await onLogout();
  };

  return (
    <section className="page" aria-labelledby="settings-title">
      <h1 id="settings-title">{t("settings.title")}</h1>
      {session ? (
        <div className="profile">
          {avatar ?? <Avatar src="" aria-hidden="true" style={{ "--size": "56px" }} />}
          <div>
            <p className="profile-name" data-testid="profile-name">
              {name.length > 16 ? maskMiddle(name) : name}
            </p>
            <p className="hint">{demo ? t("mode.demo") : t("mode.real")}</p>
          </div>
        </div>
      ) : (
        <div className="profile">
          <p>{t("settings.signedOut")}</p>
          <Button color="primary" size="small" onClick={() => void navigate("/login")}>
            {t("auth.login.submit")}
          </Button>
        </div>
      )}
      {session && !session.user.demoOnly ? (
        <List>
          <List.Item
            clickable
            arrowIcon
            onClick={() => void navigate("/open-location")}
            data-testid="settings-residence"
          >
            {t("residence.title")}
          </List.Item>
        </List>
      ) : null}
      <List header={t("settings.preferences")}>
        <List.Item
          extra={
            <select
              className="native-select"
              aria-label={t("settings.language")}
              data-testid="language-select"
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
          {t("settings.language")}
        </List.Item>
        <List.Item
          extra={
            <select
              className="native-select"
              aria-label={t("settings.theme")}
              value={theme}
              onChange={(event) => setTheme(event.target.value as ThemeChoice)}
            >
              <option value="system">{t("settings.themeSystem")}</option>
              <option value="light">{t("settings.themeLight")}</option>
              <option value="dark">{t("settings.themeDark")}</option>
            </select>
          }
        >
          {t("settings.theme")}
        </List.Item>
      </List>
      <List header={t("proof.section")}>
        <List.Item
          clickable
          arrowIcon
          onClick={() => void navigate("/proof")}
          data-testid="proof-link"
        >
          {t("proof.title")}
        </List.Item>
        <List.Item
          clickable
          arrowIcon
          onClick={() => void navigate("/transparency")}
          data-testid="transparency-link"
        >
          {t("proof.transparency.title")}
        </List.Item>
      </List>
      {session ? (
        <>
          <List header={t("settings.account")}>
            <List.Item
              clickable
              onClick={() => setNicknameDraft(session.user.nickname ?? "")}
              extra={displayNickname(session.user, t)}
              data-testid="nickname-item"
            >
              {t("settings.nickname")}
            </List.Item>
            <List.Item
              description={session.user.demoOnly ? t("mode.demoOnly") : t("mode.explain")}
              extra={
                <Switch
                  checked={demo}
                  loading={switching}
                  disabled={session.user.demoOnly === true}
                  onChange={(checked) => void switchMode(checked)}
                  aria-label={t("mode.switchLabel")}
                  data-testid="mode-switch"
                />
              }
            >
              {t("mode.switchLabel")}
            </List.Item>
            {session.user.demoOnly ? null : (
              <>
                <List.Item
                  clickable
                  arrowIcon
                  onClick={() => void navigate("/security")}
                  data-testid="security-link"
                >
                  {t("security.title")}
                </List.Item>
                <List.Item
                  clickable
                  arrowIcon
                  onClick={() => void navigate("/identity")}
                  data-testid="identity-link"
                >
                  {t("identity.title")}
                </List.Item>
                <List.Item
                  clickable
                  arrowIcon
                  onClick={() => void navigate("/invite")}
                  data-testid="invite-link-item"
                >
                  {t("invite.title")}
                </List.Item>
                <List.Item
                  clickable
                  arrowIcon
                  onClick={() => void navigate("/activity")}
                  data-testid="activity-link-item"
                >
                  {t("activity.title")}
                </List.Item>
              </>
            )}
          </List>
          <div className="stack">
            <Button block color="danger" fill="outline" onClick={() => void logout()}>
              {t("settings.logout")}
            </Button>
          </div>
        </>
      ) : null}
      <Popup
        visible={nicknameDraft !== null}
        onMaskClick={() => setNicknameDraft(null)}
        bodyStyle={{ padding: 16 }}
      >
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault();
            const nickname = (nicknameDraft ?? "").trim();
            if (!nickname) return;
            void onRename(nickname).then((saved) => saved && setNicknameDraft(null));
          }}
        >
          <Input
            value={nicknameDraft ?? ""}
            onChange={setNicknameDraft}
            maxLength={32}
            aria-label={t("settings.nickname")}
            placeholder={t("settings.nickname")}
          />
          <Button block color="primary" type="submit" data-testid="nickname-save">
            {t("settings.save")}
          </Button>
        </form>
      </Popup>
      {about}
    </section>
  );
}
