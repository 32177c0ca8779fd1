import { CryptoDepositPage } from "../../features/wallet/components/crypto-deposit-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <CryptoDepositPage />
    </RequireLogin>
  );
}
