import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { marketSocket } from "../../../lib/ws-client.ts";
import { onSessionChange } from "../../../lib/session.ts";
import {
  fetchConversation,
  fetchUnread,
  getVisitor,
  onVisitorChange,
  supportKeys,
  supportParty,
} from "./support-api.ts";

const subscribeParty = (listener: () => void) => {
  const stopSession = onSessionChange(listener);
  const stopVisitor = onVisitorChange(listener);
  return () => {
    stopSession();
    stopVisitor();
  };
};

/** The chat's party as React state: `user:<id>`, `visitor:<id>` or "". */
export function useSupportParty(): string {
  return useSyncExternalStore(subscribeParty, supportParty);
}

/**
 * Listens to the party's `support` stream: a new message or read mark refreshes the
 * conversation and the unread count; so does every (re)connection, which catches up on what
 * was said while the socket was down (a server restart).
 */
export function useSupportLive(party: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!party) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: supportKeys.all });
    const socket = marketSocket();
    const visitor = party.startsWith("visitor:") ? getVisitor() : null;
    const channel = visitor
      ? ({ channel: "support", token: visitor.token } as const)
      : ({ channel: "support" } as const);
    const stop = socket.subscribe(channel, refresh);
    const stopState = socket.onState((state) => {
      if (state === "open") refresh();
    });
    return () => {
      stop();
      stopState();
    };
  }, [party, queryClient]);
}

/** The unread support answers of the current party (0 for nobody), kept live. */
export function useSupportUnread(): number {
  const party = useSupportParty();
  useSupportLive(party);
  const unread = useQuery({
    queryKey: supportKeys.unread(party),
    queryFn: fetchUnread,
    enabled: party !== "",
  });
  return party ? (unread.data ?? 0) : 0;
}

/**
 * The current party's conversation, kept live: the newest page first, older pages on demand
 * (each page the messages before the oldest one loaded; a refresh refetches them in turn).
 */
export function useSupportConversation() {
  const party = useSupportParty();
  useSupportLive(party);
  return {
    party,
    conversation: useInfiniteQuery({
      queryKey: supportKeys.conversation(party),
      queryFn: ({ pageParam }) => fetchConversation(pageParam),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => (last.more ? last.messages[0]?.id : undefined),
      enabled: party !== "",
    }),
  };
}
