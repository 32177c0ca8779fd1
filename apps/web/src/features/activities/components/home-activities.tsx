import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useFormat } from "../../../lib/format.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { activityKeys, fetchActivities, type ActivityView } from "../api/activities-api.ts";

/** How many activities the home page shows at most (the activity page lists them all). */
const HOME_ACTIVITIES_MAX = 3;
/** Bookable first: what the user can act on now, then their reservations, then what comes. */
const stateOrder: Record<ActivityView["state"], number> = {
  bookable: 0,
  reserved: 1,
  upcoming: 2,
  ended: 3,
};

/**
 * The home page's current deposit-bonus activities of the session's mode (real or demo), each
 * linking to the activity page where the terms are shown before reserving. Signed out, or when
 * none is current, nothing is shown (the list needs an account: states are per user).
 */
export default function HomeActivities() {
  const { t } = useTranslation();
  const format = useFormat();
  const session = useSession();
  const demo = isDemo(session);
  const activities = useQuery({
    queryKey: activityKeys.list(session?.user.id ?? "", demo ? "demo" : "real"),
    queryFn: () => fetchActivities(),
    enabled: session !== null,
  });
  const current = (activities.data?.activities ?? [])
    .filter((a) => a.state !== "ended")
    .sort((a, b) => stateOrder[a.state] - stateOrder[b.state])
    .slice(0, HOME_ACTIVITIES_MAX);
  if (!session || current.length === 0) return null;
  return (
    <section aria-labelledby="home-activities-title" data-testid="home-activities">
      <div className="home-section-title">
        <h2 id="home-activities-title" className="group-title">
          {t("activity.homeTitle")}
        </h2>
        <Link to="/activity">{t("activity.homeMore")}</Link>
      </div>
      <ul className="home-banners">
        {current.map((a) => (
          <li key={a.activityId}>
            <Link to="/activity" className="notice-link home-banner" data-testid="home-activity">
              {t("activity.cardTitle", { bonus: `${format.amount(a.bonus)} ${a.asset}` })}{" "}
              {/* Plain text, not a coloured tag: readable on the banner's background. */}
              <span className="home-activity-state">· {t(`activity.state.${a.state}`)}</span>
              <br />
              <span className="hint">
                {t("activity.homeTerms", {
                  minDeposit: `${format.amount(a.minDeposit)} ${a.asset}`,
                  places: a.remaining,
                })}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
