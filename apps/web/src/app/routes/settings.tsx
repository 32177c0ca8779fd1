import { logout, loginAsDemo } from "../../features/auth/api/auth-api.ts";
import { ServerHealth } from "../../features/health/server-health.tsx";
import { SettingsPage } from "../../features/settings/components/settings-page.tsx";
import { showError, withLoading } from "../../lib/feedback.ts";
import { useAppNavigation } from "../../lib/navigation/navigation-store.ts";
import {
  clearSession,
  getSession,
  isDemo,
  setSession,
  stashRealSession,
  takeRealSession,
} from "../../lib/session.ts";
import { useNavigate } from "react-router";

export function Component() {
  const navigation = useAppNavigation();
  const navigate = useNavigate();

  /** To demo: keep the real session aside and sign in the demo user; back: restore it. */
  const switchMode = async (toDemo: boolean) => {
    const session = getSession();
    if (!session || toDemo === isDemo(session)) return;
    if (toDemo) {
      try {
        const demo = await withLoading(loginAsDemo());
        stashRealSession(session);
        setSession(demo);
      } catch (error) {
        showError(error);
      }
      return;
    }
    const real = takeRealSession();
    if (real) {
      setSession(real);
      return;
    }
    // No real session kept (it expired, or this is a demo-only visitor): sign in for real.
    clearSession();
    void navigate("/login");
  };

  const signOut = async () => {
    try {
      await withLoading(logout());
    } catch (error) {
      // The token is forgotten here either way; the server expires it within 7 days.
      showError(error);
    }
    clearSession();
    navigation.topLevel("/");
  };

  return <SettingsPage onSwitchMode={switchMode} onLogout={signOut} about={<ServerHealth />} />;
}
