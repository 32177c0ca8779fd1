import { AccountHistoryPage } from "../../features/security/components/account-history-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <AccountHistoryPage />
    </RequireLogin>
  );
}
