import { useParams } from "react-router";
import { AccountDetailPage } from "../../features/wallet/components/account-detail-page.tsx";
import { RequireLogin } from "../require-login.tsx";
import { Component as NotFound } from "./not-found.tsx";

const wallets = ["fund", "contract", "fiat"] as const;

export function Component() {
  const { wallet } = useParams();
  const known = wallets.find((w) => w === wallet);
  if (!known) return <NotFound />;
  return (
    <RequireLogin>
      <AccountDetailPage wallet={known} />
    </RequireLogin>
  );
}
