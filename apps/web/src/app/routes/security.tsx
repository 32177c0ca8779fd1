import { SecurityPage } from "../../features/security/components/security-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <SecurityPage />
    </RequireLogin>
  );
}
