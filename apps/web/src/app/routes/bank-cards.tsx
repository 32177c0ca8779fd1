import { BankCardsPage } from "../../features/wallet/components/bank-cards-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <BankCardsPage />
    </RequireLogin>
  );
}
