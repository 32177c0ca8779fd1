import { ComingLaterPage } from "../../features/coming-later/components/coming-later-page.tsx";

/** The wallet's exchange screen comes with the wallet issue; until then it says so. */
export function Component() {
  return <ComingLaterPage titleKey="assets.actions.exchange" />;
}
