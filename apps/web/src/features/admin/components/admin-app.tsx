import { locales, nativeNameByLocale, type Locale } from "@candor/contract/locales";
import { useQuery } from "@tanstack/react-query";
import { Navigate, NavLink, Outlet, Route, Routes, useNavigate } from "react-router";
import { useTranslation } from "react-i18next";
import { setLocale } from "../../../lib/i18n.ts";
import { adminKeys, fetchOperatorMe, signOutOperator } from "../api/admin-api.ts";
import { useAdminLanguage } from "../lib/admin-i18n.ts";
import { menuFor, useOperatorSession } from "../lib/operator-session.ts";
import { useAdminT } from "./admin-ui.tsx";
import { AuditPage } from "./audit-page.tsx";
import { BankDepositsPage } from "./bank-deposits-page.tsx";
import { ContentPage } from "./content-page.tsx";
import { FundingPage } from "./funding-page.tsx";
import { IdentityDetailPage, IdentityPage } from "./identity-pages.tsx";
import { LoansPage } from "./loans-page.tsx";
import { MarketsPage } from "./markets-page.tsx";
import { OperatorsPage } from "./operators-page.tsx";
import { ProductsPage } from "./products-page.tsx";
import { ProgrammesPage } from "./programmes-page.tsx";
import { BootstrapPage, ConfirmTotpPage, SignInPage } from "./sign-in-pages.tsx";
import { SupportDeskPage } from "./support-page.tsx";
import { UserDetailPage, UsersPage } from "./users-pages.tsx";
import { WithdrawalsPage } from "./withdrawals-page.tsx";
import "./admin.css";

function LanguageSelect() {
  const t = useAdminT();
  const { i18n } = useTranslation();
  return (
    <label className="admin-language">
      <span>{t("layout.language")}</span>
      <select
        value={i18n.language}
        onChange={(event) => void setLocale(event.target.value as Locale)}
        data-testid="admin-language"
      >
        {locales.map((locale) => (
          <option key={locale} value={locale}>
            {nativeNameByLocale[locale]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The frame of every signed-in page: the side menu of the operator's role, who is signed in. */
function AdminLayout() {
  const t = useAdminT();
  const session = useOperatorSession();
  const navigate = useNavigate();
  // Checks the stored session with the server; a 401 forgets it (callOperator).
  useQuery({ queryKey: adminKeys.me(), queryFn: fetchOperatorMe, staleTime: 60_000 });
  if (!session) return <Navigate to="/admin/sign-in" replace />;
  const { operator } = session;
  const signOut = async () => {
    await signOutOperator().catch(() => undefined);
    await navigate("/admin/sign-in", { replace: true });
  };
  return (
    <div className="admin-layout">
      <header className="admin-header">
        <p className="admin-brand">{t("layout.title")}</p>
        <p className="admin-whoami" data-testid="admin-whoami">
          {t("layout.signedInAs", {
            name: operator.displayName,
            id: operator.id,
            role: t(`roles.${operator.role}`),
          })}
        </p>
        <LanguageSelect />
        <button
          type="button"
          className="admin-button admin-secondary"
          onClick={() => void signOut()}
          data-testid="admin-sign-out"
        >
          {t("layout.signOut")}
        </button>
      </header>
      <div className="admin-body">
        <nav className="admin-menu" aria-label={t("layout.menu")}>
          <ul>
            {menuFor(operator.role).map((page) => (
              <li key={page}>
                <NavLink to={`/admin/${page}`} data-testid={`admin-menu-${page}`}>
                  {t(`menu.${page}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main className="admin-main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

function Home() {
  const session = useOperatorSession();
  if (!session) return <Navigate to="/admin/sign-in" replace />;
  return <Navigate to={`/admin/${menuFor(session.operator.role)[0] ?? "users"}`} replace />;
}

/**
 * The back office (issue 17): its own route tree under `#/admin`, desktop-first, loaded as its
 * own chunk. Every action goes through the operator endpoints with the operator's token.
 */
export function AdminApp() {
  useAdminLanguage();
  return (
    <div className="admin">
      <Routes>
        <Route path="sign-in" element={<SignInPage />} />
        <Route path="confirm" element={<ConfirmTotpPage />} />
        <Route path="bootstrap" element={<BootstrapPage />} />
        <Route element={<AdminLayout />}>
          <Route index element={<Home />} />
          <Route path="users" element={<UsersPage />} />
          <Route path="users/:userId" element={<UserDetailPage />} />
          <Route path="support" element={<SupportDeskPage />} />
          <Route path="support/:conversationId" element={<SupportDeskPage />} />
          <Route path="identity" element={<IdentityPage />} />
          <Route path="identity/:submissionId" element={<IdentityDetailPage />} />
          <Route path="bank-deposits" element={<BankDepositsPage />} />
          <Route path="withdrawals" element={<WithdrawalsPage />} />
          <Route path="loans" element={<LoansPage />} />
          <Route path="content" element={<ContentPage />} />
          <Route path="products" element={<ProductsPage />} />
          <Route path="markets" element={<MarketsPage />} />
          <Route path="programmes" element={<ProgrammesPage />} />
          <Route path="funding" element={<FundingPage />} />
          <Route path="audit" element={<AuditPage />} />
          <Route path="operators" element={<OperatorsPage />} />
          <Route path="*" element={<Home />} />
        </Route>
      </Routes>
    </div>
  );
}
