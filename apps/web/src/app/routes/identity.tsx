import { IdentityPage } from "../../features/security/components/identity-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <IdentityPage />
    </RequireLogin>
  );
}
