import { useParams } from "react-router";
import { OrderDetailPage } from "../../features/spot-trading/components/order-detail-page.tsx";
import { RequireLogin } from "../require-login.tsx";

export function Component() {
  const { orderId = "" } = useParams();
  return (
    <RequireLogin>
      <OrderDetailPage orderId={orderId} />
    </RequireLogin>
  );
}
