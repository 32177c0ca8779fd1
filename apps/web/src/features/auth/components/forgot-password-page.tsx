import { Button, Form } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { resetPassword, sendEmailCode } from "../api/auth-api.ts";
import { EmailCodeFields } from "./email-code-fields.tsx";

interface ResetValues {
  email: string;
  emailCode: string;
  password: string;
  passwordConfirm: string;
}

/** Forgot password: a code by e-mail, then a new password. */
export function ForgotPasswordPage({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ResetValues>();
  const submit = async (values: ResetValues) => {
    try {
      await withLoading(
        resetPassword({
          email: values.email.trim(),
          emailCode: values.emailCode.trim(),
          password: values.password,
          passwordConfirm: values.passwordConfirm,
        }),
      );
      showSuccess(t("auth.forgot.done"));
      onDone();
    } catch (error) {
      showError(error);
    }
  };
  const sendCode = () =>
    sendEmailCode({
      email: (form.getFieldValue("email") as string | undefined)?.trim() ?? "",
      purpose: "reset_password",
    });
  return (
    <section className="page" aria-labelledby="forgot-title">
      <h1 id="forgot-title">{t("auth.forgot.title")}</h1>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values: ResetValues) => void submit(values)}
        footer={
          <Button block type="submit" color="primary" size="large">
            {t("auth.forgot.submit")}
          </Button>
        }
      >
        <EmailCodeFields
          emailField="email"
          passwordLabel={t("auth.fields.newPassword")}
          sendCode={sendCode}
        />
      </Form>
    </section>
  );
}
