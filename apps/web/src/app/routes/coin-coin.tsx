import { ComingLaterPage } from "../../features/coming-later/components/coming-later-page.tsx";

export function Component() {
  return <ComingLaterPage titleKey="nav.coinCoin" />;
}
