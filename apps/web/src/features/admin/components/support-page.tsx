import type { SupportConversationSummary, SupportMessageView } from "@candor/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Link, useParams } from "react-router";
import { useBlobUrl } from "../../../lib/use-blob-url.ts";
import { marketSocket } from "../../../lib/ws-client.ts";
import { uploadOperatorImage } from "../api/admin-api.ts";
import {
  fetchSupportConversation,
  fetchSupportConversations,
  fetchSupportImage,
  readSupport,
  replySupport,
  supportDeskKeys,
} from "../api/support-api.ts";
import { useOperatorSession } from "../lib/operator-session.ts";
import { AdminPage, QueryView, useAdminFormat, useAdminT, useErrorText } from "./admin-ui.tsx";

/**
 * Listens to `support_operator` with the operator's session: any new message or read mark
 * refreshes the desk, and so does every (re)connection (what was said while it was down).
 */
function useSupportDeskLive() {
  const queryClient = useQueryClient();
  const token = useOperatorSession()?.token;
  useEffect(() => {
    if (!token) return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: supportDeskKeys.all });
    const socket = marketSocket();
    const stop = socket.subscribe({ channel: "support_operator", token }, refresh);
    const stopState = socket.onState((state) => {
      if (state === "open") refresh();
    });
    return () => {
      stop();
      stopState();
    };
  }, [token, queryClient]);
}

/**
 * The support desk (issue 23): conversations with their unread counts, most recent first; the
 * open one with the user's context (mode, identity state, recent deposits) and the answer box.
 * Opening a conversation marks the user's messages read.
 */
export function SupportDeskPage() {
  const t = useAdminT();
  const { conversationId } = useParams();
  useSupportDeskLive();
  const list = useQuery({
    queryKey: supportDeskKeys.list(),
    queryFn: fetchSupportConversations,
  });
  return (
    <AdminPage title={t("support.title")} testId="admin-support">
      <div className="admin-support">
        <QueryView
          query={list}
          isEmpty={(data) => data.items.length === 0}
          emptyText={t("support.empty")}
        >
          {(data) => (
            <nav aria-label={t("support.conversations")}>
              <p className="admin-hint" data-testid="admin-support-unread">
                {t("support.unreadConversations", { count: data.unreadConversations })}
              </p>
              <ul className="admin-support-list">
                {data.items.map((item) => (
                  <ConversationItem
                    key={item.conversationId}
                    item={item}
                    open={item.conversationId === conversationId}
                  />
                ))}
              </ul>
            </nav>
          )}
        </QueryView>
        {conversationId ? (
          <Conversation key={conversationId} conversationId={conversationId} />
        ) : null}
      </div>
    </AdminPage>
  );
}

const identityStates = ["unverified", "under_review", "passed", "not_approved"] as const;
function verificationText(value: string, t: ReturnType<typeof useAdminT>) {
  return (identityStates as readonly string[]).includes(value)
    ? t(`identityStates.${value as (typeof identityStates)[number]}`)
    : value;
}

function partyName(item: SupportConversationSummary, t: ReturnType<typeof useAdminT>) {
  const who = item.party.email ?? item.party.nickname ?? item.party.userId ?? "";
  return item.party.userId === null ? `${who} (${t("support.visitor")})` : who;
}

function ConversationItem({ item, open }: { item: SupportConversationSummary; open: boolean }) {
  const t = useAdminT();
  const format = useAdminFormat();
  return (
    <li
      className={open ? "admin-support-item admin-support-open" : "admin-support-item"}
      data-testid="admin-support-conversation"
      data-unread={item.unread}
    >
      <Link to={`/admin/support/${item.conversationId}`}>
        <strong>{partyName(item, t)}</strong>
        {item.unread > 0 ? (
          <span className="admin-badge" data-testid="admin-support-item-unread">
            {item.unread}
          </span>
        ) : null}
      </Link>
      <p className="admin-hint">
        {item.last?.text ?? (item.last?.image ? t("support.image") : "")}
        {" · "}
        {format.time(item.updatedAtMs)}
      </p>
    </li>
  );
}

function Conversation({ conversationId }: { conversationId: string }) {
  const t = useAdminT();
  const format = useAdminFormat();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const conversation = useQuery({
    queryKey: supportDeskKeys.conversation(conversationId),
    queryFn: () => fetchSupportConversation(conversationId),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: supportDeskKeys.all });
  const data = conversation.data;
  const lastUser = data?.messages.filter((m) => m.side === "user").at(-1)?.id;
  const unread = data?.conversation.unread ?? 0;
  useEffect(() => {
    if (!lastUser || unread === 0) return;
    void readSupport(conversationId, lastUser)
      .then(refresh)
      .catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh is stable in effect
  }, [conversationId, lastUser, unread]);

  // Earlier pages, loaded on demand before the newest page (which the live refresh refetches).
  const [older, setOlder] = useState<{ messages: SupportMessageView[]; more: boolean } | null>(
    null,
  );
  const [loadingOlder, setLoadingOlder] = useState(false);
  const loadOlder = async () => {
    const first = older?.messages[0] ?? data?.messages[0];
    if (!first) return;
    setLoadingOlder(true);
    try {
      const page = await fetchSupportConversation(conversationId, first.id);
      setOlder({ messages: [...page.messages, ...(older?.messages ?? [])], more: page.more });
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setLoadingOlder(false);
    }
  };

  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const send = async (answer: () => Promise<{ text: string } | { uploadId: string }>) => {
    setBusy(true);
    setError(null);
    try {
      const body = await answer();
      await replySupport(conversationId, body);
      if ("text" in body) setText("");
      refresh();
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
      if (file.current) file.current.value = "";
    }
  };
  const sendImage = (chosen: File | undefined) => {
    if (chosen) {
      void send(async () => ({ uploadId: await uploadOperatorImage(chosen, "support_image") }));
    }
  };

  return (
    <section className="admin-support-conversation" data-testid="admin-support-open">
      <QueryView query={conversation}>
        {(data) => (
          <>
            <h2>{partyName(data.conversation, t)}</h2>
            {data.context ? (
              <dl className="admin-dl" data-testid="admin-support-context">
                <dt>{t("common.mode")}</dt>
                <dd>{t(`common.modes.${data.context.mode}`)}</dd>
                <dt>{t("support.verification")}</dt>
                <dd>{verificationText(data.context.verification, t)}</dd>
                <dt>{t("support.frozen")}</dt>
                <dd>{data.context.frozen ? t("common.yes") : t("common.no")}</dd>
                <dt>{t("support.deposits")}</dt>
                <dd>
                  {data.context.recentDeposits.length === 0 ? (
                    t("support.noDeposits")
                  ) : (
                    <ul>
                      {data.context.recentDeposits.map((deposit) => (
                        <li key={`${deposit.atMs}-${deposit.assetId}-${deposit.amount}`}>
                          {format.amount(deposit.amount)} {deposit.assetId} ·{" "}
                          {format.time(deposit.atMs)}
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
                {data.conversation.party.userId ? (
                  <>
                    <dt>{t("audit.user")}</dt>
                    <dd>
                      <Link to={`/admin/users/${data.conversation.party.userId}`}>
                        {data.conversation.party.userId}
                      </Link>
                    </dd>
                  </>
                ) : null}
              </dl>
            ) : (
              <p className="admin-hint">{t("support.visitorHint")}</p>
            )}
            {(older ? older.more : data.more) ? (
              <button
                type="button"
                className="admin-button admin-secondary"
                disabled={loadingOlder}
                onClick={() => void loadOlder()}
                data-testid="admin-support-earlier"
              >
                {t("support.earlier")}
              </button>
            ) : null}
            <ol className="admin-support-messages">
              {withoutRepeats([...(older?.messages ?? []), ...data.messages]).map((message) => (
                <DeskMessage key={message.id} message={message} />
              ))}
            </ol>
          </>
        )}
      </QueryView>
      <form
        className="admin-support-reply"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = text.trim();
          if (trimmed) void send(() => Promise.resolve({ text: trimmed }));
        }}
      >
        <label>
          {t("support.answer")}
          <textarea
            value={text}
            maxLength={2000}
            rows={3}
            onChange={(event) => setText(event.target.value)}
            data-testid="admin-support-input"
          />
        </label>
        {error ? (
          <p className="admin-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy || !text.trim()} data-testid="admin-support-send">
          {t("support.send")}
        </button>
        <label className="admin-field">
          <span>{t("support.sendImage")}</span>
          <input
            ref={file}
            type="file"
            accept="image/jpeg,image/png"
            disabled={busy}
            onChange={(event) => sendImage(event.target.files?.[0])}
            data-testid="admin-support-image-input"
          />
        </label>
      </form>
    </section>
  );
}

/** Messages in order with each id once (an older page and the newest may overlap). */
function withoutRepeats(messages: SupportMessageView[]): SupportMessageView[] {
  const seen = new Set<string>();
  return messages.filter((message) => !seen.has(message.id) && seen.add(message.id));
}

function DeskMessage({ message }: { message: SupportMessageView }) {
  const t = useAdminT();
  const format = useAdminFormat();
  return (
    <li
      className={`admin-support-message admin-support-${message.side}`}
      data-testid="admin-support-message"
      data-side={message.side}
    >
      <span className="admin-hint">
        {message.side === "user" ? t("support.fromUser") : t("support.fromSupport")} ·{" "}
        {format.time(message.sentAtMs)}
      </span>
      {message.text !== null ? <p>{message.text}</p> : null}
      {message.image ? <SupportImage uploadId={message.image.uploadId} /> : null}
    </li>
  );
}

function SupportImage({ uploadId }: { uploadId: string }) {
  const t = useAdminT();
  const { url } = useBlobUrl(supportDeskKeys.image(uploadId), () => fetchSupportImage(uploadId));
  return url ? (
    <img className="admin-support-image" src={url} alt={t("support.image")} />
  ) : (
    <p role="status">{t("common.loading")}</p>
  );
}
