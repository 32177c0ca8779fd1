import { BuyPage } from "../../features/wallet/components/buy-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <BuyPage />
    </RequireLogin>
  );
}
