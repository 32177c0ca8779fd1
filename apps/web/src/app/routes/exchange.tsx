import { ExchangePage } from "../../features/wallet/components/exchange-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <ExchangePage />
    </RequireLogin>
  );
}
