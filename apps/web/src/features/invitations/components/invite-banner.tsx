import { GiftOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useSession } from "../../../lib/session.ts";

/**
 * The home page's invite banner: signed in it opens the invite page (code, link, rebates);
 * signed out it opens registration, since inviting needs an account.
 */
export default function InviteBanner() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Link to={session ? "/invite" : "/register"} className="home-invite" data-testid="home-invite">
      <GiftOutline aria-hidden="true" className="quick-icon" />
      <span>
        <strong>{t("invite.bannerTitle")}</strong>
        <span className="hint">
          {session ? t("invite.bannerText") : t("invite.bannerSignedOut")}
        </span>
      </span>
    </Link>
  );
}
