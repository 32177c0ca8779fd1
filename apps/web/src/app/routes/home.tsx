import { HomePage } from "../../features/home/components/home-page.tsx";
import { MarketOverview } from "../../features/markets/components/market-overview.tsx";
import { NoticesStrip } from "../../features/notices/components/notices.tsx";

export function Component() {
  return <HomePage noticesStrip={<NoticesStrip />} overview={<MarketOverview />} />;
}
