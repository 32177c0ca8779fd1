import { LoginPage } from "../../features/auth/components/login-page.tsx";
import { useAppNavigation } from "../../lib/navigation/navigation-store.ts";

export function Component() {
  const navigation = useAppNavigation();
  return <LoginPage onSignedIn={navigation.afterLogin} />;
}
