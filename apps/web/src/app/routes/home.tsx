import { lazy, Suspense } from "react";
import { HomePage } from "../../features/home/components/home-page.tsx";
import { InviteBanner } from "../../features/invitations/components/invite-banner.tsx";
import { MarketOverview } from "../../features/market-data/components/market-overview.tsx";
import { NewsHeadlines } from "../../features/news/components/news-headlines.tsx";
import { HomeBanners } from "../../features/notices/components/home-banners.tsx";
import { NoticesStrip } from "../../features/notices/components/notices-strip.tsx";

/**
 * The activities need an account and sit below the fold: their own chunk, loaded after the
 * page shows, keeps the home route within its budget (tests/web-bundle-budget.test.ts).
 */
const HomeActivities = lazy(() =>
  import("../../features/activities/components/home-activities.tsx").then((module) => ({
    default: module.HomeActivities,
  })),
);

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
      invite={<InviteBanner />}
      overview={<MarketOverview />}
      news={<NewsHeadlines />}
    />
  );
}
