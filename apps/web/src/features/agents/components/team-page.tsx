import { List, Tag } from "antd-mobile";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { useFormat } from "../../../lib/format.ts";
import { useSession } from "../../../lib/session.ts";
import { agentKeys, fetchMyTeam } from "../api/agents-api.ts";

/**
 * My team (spec §2): the users I invited, masked, with the date they joined, whether they are a
 * valid member today (traded in the agent asset) and their volume today, in this mode.
 */
export function TeamPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const session = useSession();
  const mode = session?.user.is_virtual === 1 ? "demo" : "real";
  const team = useQuery({
    queryKey: agentKeys.team(session?.user.id ?? "", mode),
    queryFn: () => fetchMyTeam(),
  });
  const data = team.data;
  return (
    <section className="page" aria-labelledby="team-title">
      <h1 id="team-title">{t("agents.myTeam")}</h1>
      {team.isPending ? <LoadingState /> : null}
      {team.isError ? (
        <ErrorState message={team.error.message} onRetry={() => void team.refetch()} />
      ) : null}
      {data && data.members.length === 0 ? <EmptyState /> : null}
      {data && data.members.length > 0 ? (
        <List data-testid="team-members">
          {data.members.map((member, index) => (
            <List.Item
              key={index}
              description={`${t("agents.joined")}: ${format.date(Date.parse(member.joinedAt))} · ${t("agents.volumeToday")}: ${format.amount(member.volumeToday)} ${data.asset ?? ""}`}
              extra={
                <Tag color={member.valid ? "primary" : "default"} fill="outline">
                  {member.valid ? t("agents.valid") : t("agents.notValid")}
                </Tag>
              }
            >
              {member.account}
            </List.Item>
          ))}
        </List>
      ) : null}
    </section>
  );
}
