import { Dialog } from "antd-mobile";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { confirm } from "../lib/dialogs.tsx";
import { useAppNavigation } from "../lib/navigation/navigation-store.ts";
import { useSession } from "../lib/session.ts";

/**
 * Protected pages: signed out, asks "You are not logged in, do you want to log in?" (spec §6)
 * and goes to login, or back when declined.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const navigation = useAppNavigation();
  useEffect(() => {
    if (session) return;
    let cancelled = false;
    void confirm({ content: t("auth.notLoggedIn"), confirmText: t("auth.login.submit") }).then(
      (confirmed) => {
        if (cancelled) return;
        if (confirmed) void navigate("/login");
        else navigation.back();
      },
    );
    return () => {
      cancelled = true;
      Dialog.clear();
    };
  }, [session, t, navigate, navigation]);
  return session ? children : null;
}
