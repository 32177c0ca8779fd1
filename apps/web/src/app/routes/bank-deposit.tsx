import { BankDepositPage } from "../../features/wallet/components/bank-deposit-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <BankDepositPage />
    </RequireLogin>
  );
}
