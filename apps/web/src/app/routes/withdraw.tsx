import { WithdrawPage } from "../../features/wallet/components/withdraw-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <WithdrawPage />
    </RequireLogin>
  );
}
