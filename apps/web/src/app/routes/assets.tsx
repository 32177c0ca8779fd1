import { ComingLaterPage } from "../../features/coming-later/components/coming-later-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <ComingLaterPage titleKey="nav.assets" />
    </RequireLogin>
  );
}
