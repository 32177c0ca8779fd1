import { ActivityPage } from "../../features/activities/components/activity-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <ActivityPage />
    </RequireLogin>
  );
}
