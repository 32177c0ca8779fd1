import { AddressBookPage } from "../../features/wallet/components/address-book-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  return (
    <RequireLogin>
      <AddressBookPage />
    </RequireLogin>
  );
}
