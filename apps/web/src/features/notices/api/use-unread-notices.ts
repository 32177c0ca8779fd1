import { useQuery } from "@tanstack/react-query";
import { useSession } from "../../../lib/session.ts";
import { fetchUnreadNotices, noticeKeys } from "./notices-api.ts";

/** The signed-in user's unread notices (nothing is asked when signed out). */
export function useUnreadNotices() {
  const session = useSession();
  return useQuery({
    queryKey: noticeKeys.unread(session?.user.id ?? ""),
    queryFn: fetchUnreadNotices,
    enabled: session !== null,
  });
}
