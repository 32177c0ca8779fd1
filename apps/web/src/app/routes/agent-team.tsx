import { TeamPage } from "../../features/agents/components/team-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <TeamPage />
    </RequireLogin>
  );
}
