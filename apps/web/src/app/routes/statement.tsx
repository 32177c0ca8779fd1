import { StatementPage } from "../../features/wallet/components/statement-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <StatementPage />
    </RequireLogin>
  );
}
