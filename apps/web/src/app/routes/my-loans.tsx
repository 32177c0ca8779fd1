import { MyLoansPage } from "../../features/loans/components/my-loans-page.tsx";
import { RequireLogin } from "../require-login.tsx";

/** ToLoanList: the user's loans and repayment. */
export function Component() {
  return (
    <RequireLogin>
      <MyLoansPage />
    </RequireLogin>
  );
}
