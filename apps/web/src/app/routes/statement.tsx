import { StatementPage } from "../../features/spot/components/statement-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <StatementPage />
    </RequireLogin>
  );
}
