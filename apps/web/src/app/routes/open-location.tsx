import { OpenLocationPage } from "../../features/security/components/open-location-page.tsx";
import { RequireLogin } from "../require-login.tsx";

/** The spec's system page `/open-location`: the country of residence and what it opens. */
export function Component() {
  return (
    <RequireLogin>
      <OpenLocationPage />
    </RequireLogin>
  );
}
