import { TransferPage } from "../../features/wallet/components/transfer-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <TransferPage />
    </RequireLogin>
  );
}
