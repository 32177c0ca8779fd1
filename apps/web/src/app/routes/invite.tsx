import { InvitePage } from "../../features/invitations/components/invite-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <InvitePage />
    </RequireLogin>
  );
}
