import { lazy, Suspense } from "react";
import { HomePage } from "../../features/home/components/home-page.tsx";
import { MarketOverview } from "../../features/market-data/components/market-overview.tsx";
import { NewsHeadlines } from "../../features/news/components/news-headlines.tsx";
import { HomeBanners } from "../../features/notices/components/home-banners.tsx";
import { NoticesStrip } from "../../features/notices/components/notices-strip.tsx";

/**
 * The activities and the invite banner sit below the fold: their own chunks, loaded after the
 * page shows, keep the home route within its budget (tests/web-bundle-budget.test.ts).
 */
const HomeActivities = lazy(
  () => import("../../features/activities/components/home-activities.tsx"),
);
const InviteBanner = lazy(() => import("../../features/invitations/components/invite-banner.tsx"));

export function Component() {
  return (
    <HomePage
      noticesStrip={<NoticesStrip />}
      banners={<HomeBanners />}
      activities={
        <Suspense fallback={null}>
          <HomeActivities />
        </Suspense>
      }
      invite={
        <Suspense fallback={null}>
          <InviteBanner />
        </Suspense>
      }
      overview={<MarketOverview />}
      news={<NewsHeadlines />}
    />
  );
}
