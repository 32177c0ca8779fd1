import { createHashRouter, Navigate, useLocation, type RouteObject } from "react-router";
import { legacyRedirects } from "./legacy-routes.ts";
import { Shell } from "./shell.tsx";

/** Redirects a spec path to its readable route, keeping the query. */
function LegacyRedirect({ to }: { to: string }) {
  const location = useLocation();
  return <Navigate to={`${to}${location.search}`} replace />;
}

/** Each page is its own chunk, loaded when first shown, so the home route stays small. */
const pages: RouteObject[] = [
  { index: true, lazy: () => import("./routes/home.tsx") },
  { path: "quotation", lazy: () => import("./routes/quotation.tsx") },
  { path: "search", lazy: () => import("./routes/search.tsx") },
  { path: "notices", lazy: () => import("./routes/notices.tsx") },
  { path: "notices/:noticeId", lazy: () => import("./routes/notice-detail.tsx") },
  { path: "settings", lazy: () => import("./routes/settings.tsx") },
  { path: "login", lazy: () => import("./routes/login.tsx") },
  { path: "register", lazy: () => import("./routes/register.tsx") },
  { path: "forgot-password", lazy: () => import("./routes/forgot-password.tsx") },
  { path: "wallet", lazy: () => import("./routes/wallet.tsx") },
  { path: "wallet/info", lazy: () => import("./routes/wallet-info.tsx") },
  { path: "coin-coin", lazy: () => import("./routes/coin-coin.tsx") },
  { path: "trade", lazy: () => import("./routes/trade.tsx") },
  { path: "assets", lazy: () => import("./routes/assets.tsx") },
  { path: "vip", lazy: () => import("./routes/vip.tsx") },
  ...Object.entries(legacyRedirects).map(([from, to]) => ({
    path: from.slice(1),
    element: <LegacyRedirect to={to} />,
  })),
  { path: "*", lazy: () => import("./routes/not-found.tsx") },
];

export function createAppRouter() {
  return createHashRouter([
    { path: "/", element: <Shell />, children: pages, hydrateFallbackElement: null },
  ]);
}
