import { HomeActivities } from "../../features/activities/components/home-activities.tsx";
import { HomePage } from "../../features/home/components/home-page.tsx";
import { InviteBanner } from "../../features/invitations/components/invite-banner.tsx";
import { MarketOverview } from "../../features/market-data/components/market-overview.tsx";
import { NewsHeadlines } from "../../features/news/components/news-headlines.tsx";
import { HomeBanners } from "../../features/notices/components/home-banners.tsx";
import { NoticesStrip } from "../../features/notices/components/notices-strip.tsx";

export function Component() {
  return (
    <HomePage
      noticesStrip={<NoticesStrip />}
      banners={<HomeBanners />}
      activities={<HomeActivities />}
      invite={<InviteBanner />}
      overview={<MarketOverview />}
      news={<NewsHeadlines />}
    />
  );
}
