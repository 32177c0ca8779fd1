import { SafeArea, TabBar, Tag } from "antd-mobile";
import {
  AppOutline,
  BillOutline,
  HistogramOutline,
  LeftOutline,
  PayCircleOutline,
  StarOutline,
  UnorderedListOutline,
} from "antd-mobile-icons";
import { lazy, Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation } from "react-router";
import { LoadingState } from "../components/ui/states.tsx";
import { rememberDeviceOnShow } from "../lib/device-info.ts";
import { useAppNavigation, useRecordNavigation } from "../lib/navigation/navigation-store.ts";
import { isDemo, useSession } from "../lib/session.ts";
import { UpdateBanner } from "./update-banner.tsx";

/** The customer-service entry with its unread badge: its own chunk, loaded after the page. */
const SupportEntry = lazy(() =>
  import("../features/support/components/support-entry.tsx").then((module) => ({
    default: module.SupportEntry,
  })),
);

/** The five bottom tabs (spec §2: Home, Coin-Coin, Trade, Assets, VIP), by route. */
export const tabs = [
  { path: "/", key: "home", icon: <AppOutline /> },
  { path: "/coin-coin", key: "coinCoin", icon: <PayCircleOutline /> },
  { path: "/trade", key: "trade", icon: <HistogramOutline /> },
  { path: "/assets", key: "assets", icon: <BillOutline /> },
  { path: "/vip", key: "vip", icon: <StarOutline /> },
] as const;

const tabPaths = new Set<string>(tabs.map((tab) => tab.path));

/** Pages whose navigation bar has an empty title (spec §2: loan, certification, side). */
const untitledPaths = new Set<string>(["/loan", "/certification", "/side"]);

/**
 * Every page's frame: the navigation bar (product name, back, demo badge), the page, and on
 * top-level pages the tab bar. Records the history for the navigation rules.
 */
export function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  const session = useSession();
  const navigation = useAppNavigation();
  useRecordNavigation();
  useEffect(() => rememberDeviceOnShow(), []);

  const topLevel = tabPaths.has(location.pathname);
  const demo = isDemo(session);
  return (
    <div className="shell">
      <header className="shell-header">
        <SafeArea position="top" />
        <div className="nav-bar">
          <div className="nav-bar-side">
            {/* The home header opens the side page (spec: index/side). */}
            {location.pathname === "/" ? (
              <Link
                to="/side"
                className="nav-bar-back"
                aria-label={t("nav.side")}
                data-testid="nav-side"
              >
                <UnorderedListOutline aria-hidden="true" />
              </Link>
            ) : null}
            {topLevel ? null : (
              <button
                type="button"
                className="nav-bar-back"
                onClick={navigation.back}
                aria-label={t("nav.back")}
                data-testid="nav-back"
              >
                <LeftOutline aria-hidden="true" />
              </button>
            )}
          </div>
          <div className="nav-bar-title">
            {untitledPaths.has(location.pathname) ? "" : t("app.name")}
          </div>
          <div className="nav-bar-side nav-bar-right">
            {location.pathname === "/support" ? null : (
              <Suspense fallback={null}>
                <SupportEntry />
              </Suspense>
            )}
            {demo ? (
              <Tag color="warning" fill="solid" data-testid="demo-badge">
                {t("mode.demoBadge")}
              </Tag>
            ) : null}
          </div>
        </div>
      </header>
      <UpdateBanner />
      <main className="shell-main" id="main">
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </main>
      {topLevel ? (
        <nav className="shell-tabs" aria-label={t("nav.tabs")}>
          <TabBar activeKey={location.pathname} onChange={(path) => navigation.topLevel(path)}>
            {tabs.map((tab) => (
              <TabBar.Item key={tab.path} icon={tab.icon} title={t(`nav.${tab.key}`)} />
            ))}
          </TabBar>
          <SafeArea position="bottom" />
        </nav>
      ) : null}
    </div>
  );
}
