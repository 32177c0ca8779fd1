import { VipPage } from "../../features/vip/components/vip-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <VipPage />
    </RequireLogin>
  );
}
