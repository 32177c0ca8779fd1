import { WalletPage } from "../../features/auth/components/wallet-page.tsx";
import { useAppNavigation } from "../../lib/navigation/navigation-store.ts";

export function Component() {
  const navigation = useAppNavigation();
  return <WalletPage onSignedIn={navigation.afterLogin} />;
}
