import { logout, rename, switchMode } from "../../features/auth/api/auth-api.ts";
import { ServerHealth } from "../../features/health/components/server-health.tsx";
import { SettingsPage } from "../../features/settings/components/settings-page.tsx";
import { AvatarUpload } from "../../features/security/components/avatar-upload.tsx";
import { showError, withLoading } from "../../lib/feedback.ts";
import { useAppNavigation } from "../../lib/navigation/navigation-store.ts";
import {
  clearSession,
  getSession,
  isDemo,
  updateSessionUser,
  useSession,
} from "../../lib/session.ts";

export function Component() {
  const navigation = useAppNavigation();
  const session = useSession();

  /** Real ↔ demo is a property of the session on the server (issue 5: PUT /api/v1/me/mode). */
  const changeMode = async (toDemo: boolean) => {
    const session = getSession();
    if (!session || toDemo === isDemo(session)) return;
    try {
      updateSessionUser(await withLoading(switchMode(toDemo ? "demo" : "real")));
    } catch (error) {
      showError(error);
    }
  };

  const changeNickname = async (nickname: string) => {
    try {
      updateSessionUser(await withLoading(rename(nickname)));
      return true;
    } catch (error) {
      showError(error);
      return false;
    }
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

  return (
    <SettingsPage
      onSwitchMode={changeMode}
      onLogout={signOut}
      onRename={changeNickname}
      about={<ServerHealth />}
      avatar={session && !session.user.demoOnly ? <AvatarUpload /> : undefined}
    />
  );
}
