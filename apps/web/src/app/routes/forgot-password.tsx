import { useNavigate } from "react-router";
import { ForgotPasswordPage } from "../../features/auth/components/forgot-password-page.tsx";

export function Component() {
  const navigate = useNavigate();
  return <ForgotPasswordPage onDone={() => void navigate("/login", { replace: true })} />;
}
