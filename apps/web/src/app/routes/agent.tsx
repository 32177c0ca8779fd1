import { AgentPage } from "../../features/agents/components/agent-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <AgentPage />
    </RequireLogin>
  );
}
