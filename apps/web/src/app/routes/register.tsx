import { RegisterPage } from "../../features/auth/components/register-page.tsx";
import { useAppNavigation } from "../../lib/navigation/navigation-store.ts";

export function Component() {
  const navigation = useAppNavigation();
  return <RegisterPage onSignedIn={navigation.afterLogin} />;
}
