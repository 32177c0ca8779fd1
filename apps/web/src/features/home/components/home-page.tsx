import { Grid } from "antd-mobile";
import {
  AddCircleOutline,
  BellOutline,
  HistogramOutline,
  SearchOutline,
  SetOutline,
  UserCircleOutline,
} from "antd-mobile-icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSession } from "../../../lib/session.ts";

const quickEntries = [
  { to: "/buy", key: "buy", icon: <AddCircleOutline /> },
  { to: "/quotation", key: "quotation", icon: <HistogramOutline /> },
  { to: "/search", key: "search", icon: <SearchOutline /> },
  { to: "/notices", key: "notices", icon: <BellOutline /> },
  { to: "/settings", key: "settings", icon: <SetOutline /> },
] as const;

/**
 * Home: the notices strip, banners, quick entries, current deposit-bonus activities, the invite
 * banner, the market overview by asset class, the latest news.
 */
export function HomePage({
  noticesStrip,
  banners,
  activities,
  invite,
  overview,
  news,
}: {
  noticesStrip: ReactNode;
  /** The operator's banners shown now (back-office content). */
  banners?: ReactNode;
  /** The session mode's current deposit-bonus activities (signed in). */
  activities?: ReactNode;
  /** The invite banner (to the invite page, or to registration signed out). */
  invite?: ReactNode;
  overview: ReactNode;
  news?: ReactNode;
}) {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <section className="page" aria-labelledby="home-title">
      {noticesStrip}
      <h1 id="home-title" data-testid="home-title">
        {t("home.title")}
      </h1>
      <p className="hint">{t("app.tagline")}</p>
      {banners}
      {session ? null : (
        <Link className="sign-in-banner" to="/login">
          <UserCircleOutline aria-hidden="true" /> {t("home.signIn")}
        </Link>
      )}
      <nav aria-label={t("home.quickEntries")}>
        <Grid columns={4} gap={8}>
          {quickEntries.map((entry) => (
            <Grid.Item key={entry.key}>
              <Link to={entry.to} className="quick-entry">
                <span aria-hidden="true" className="quick-icon">
                  {entry.icon}
                </span>
                <span>{t(`home.entries.${entry.key}`)}</span>
              </Link>
            </Grid.Item>
          ))}
        </Grid>
      </nav>
      {activities}
      {invite}
      {overview}
      {news}
    </section>
  );
}
