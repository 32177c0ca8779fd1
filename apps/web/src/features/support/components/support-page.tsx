import type { SupportMessageView } from "@candor/contract";
import { Button, Input, TextArea } from "antd-mobile";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { showError } from "../../../lib/feedback.ts";
import { useFormat } from "../../../lib/format.ts";
import { useBlobUrl } from "../../../lib/use-blob-url.ts";
import {
  fetchSupportImage,
  forgetVisitor,
  getVisitor,
  markRead,
  sendMessage,
  startVisitor,
  supportKeys,
  uploadSupportImage,
} from "../api/support-api.ts";
import { useSupportConversation } from "../api/use-support.ts";

/** Longest message the composer takes (contract `supportTextCharsMax`). */
const textCharsMax = 2_000;

/**
 * Customer service (spec webview/customer): the conversation with the support team, live over
 * the WebSocket. Signed in, it is the user's own conversation (text and images); signed out, a
 * visitor leaves an e-mail first, the browser keeps the conversation, and answers are e-mailed
 * too. Opening the page marks support's answers read.
 */
export function SupportPage() {
  const { t } = useTranslation();
  const { party, conversation } = useSupportConversation();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: supportKeys.all });
  const pages = conversation.data?.pages;
  // Pages come newest first; each is oldest first within itself.
  const messages = pages ? [...pages].reverse().flatMap((page) => page.messages) : undefined;
  const lastOperator = messages?.filter((m) => m.side === "operator").at(-1)?.id;
  const unread = pages?.[0]?.unread ?? 0;

  // What is on screen is read: move the read position to the newest answer shown.
  useEffect(() => {
    if (!lastOperator || unread === 0) return;
    void markRead(lastOperator)
      .then(refresh)
      .catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh is stable in effect
  }, [lastOperator, unread]);

  const list = useRef<HTMLOListElement>(null);
  const count = messages?.length ?? 0;
  useEffect(() => {
    list.current?.lastElementChild?.scrollIntoView?.({ block: "end" });
  }, [count]);

  return (
    <section className="page support-page" aria-labelledby="support-title">
      <h1 id="support-title">{t("support.title")}</h1>
      {party === "" ? (
        <VisitorStart onStarted={refresh} />
      ) : (
        <>
          <p className="hint">{t("support.intro")}</p>
          {party.startsWith("visitor:") ? <VisitorNote /> : null}
          {conversation.isPending ? <LoadingState /> : null}
          {conversation.isError ? (
            <ErrorState
              message={conversation.error.message}
              onRetry={() => void conversation.refetch()}
            />
          ) : null}
          {messages && messages.length === 0 ? (
            <p className="hint" data-testid="support-empty">
              {t("support.empty")}
            </p>
          ) : null}
          {conversation.hasNextPage ? (
            <Button
              size="small"
              fill="none"
              loading={conversation.isFetchingNextPage}
              onClick={() => void conversation.fetchNextPage()}
              data-testid="support-earlier"
            >
              {t("support.earlier")}
            </Button>
          ) : null}
          {messages && messages.length > 0 ? (
            <ol className="support-messages" ref={list} data-testid="support-messages">
              {messages.map((message) => (
                <MessageBubble key={message.id} message={message} party={party} />
              ))}
            </ol>
          ) : null}
          <Composer images={party.startsWith("user:")} onSent={refresh} />
        </>
      )}
    </section>
  );
}

function MessageBubble({ message, party }: { message: SupportMessageView; party: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <li
      className={`support-message support-message-${message.side}`}
      data-testid="support-message"
      data-side={message.side}
    >
      <span className="support-message-from">
        {message.side === "user" ? t("support.you") : t("support.operator")}
      </span>
      {message.text !== null ? <p className="support-message-text">{message.text}</p> : null}
      {message.image ? <MessageImage party={party} image={message.image} /> : null}
      <time className="hint" dateTime={new Date(message.sentAtMs).toISOString()}>
        {format.relative(message.sentAtMs, Date.now())}
      </time>
    </li>
  );
}

/** An image of the conversation, either side's, in its own size up to 240 px wide. */
function MessageImage({
  party,
  image,
}: {
  party: string;
  image: NonNullable<SupportMessageView["image"]>;
}) {
  const { t } = useTranslation();
  const { url, error } = useBlobUrl(supportKeys.image(party, image.uploadId), () =>
    fetchSupportImage(image.uploadId),
  );
  const width = Math.min(image.width, 240);
  const height = Math.round((image.height * width) / image.width);
  if (error) return <p className="hint">{error.message}</p>;
  return url ? (
    <img
      className="support-message-image"
      src={url}
      alt={t("support.image")}
      width={width}
      height={height}
      data-testid="support-message-image"
    />
  ) : (
    <div className="support-message-image" style={{ width, height }} aria-busy="true" />
  );
}

function Composer({ images, onSent }: { images: boolean; onSent: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const file = useRef<HTMLInputElement>(null);

  const send = async (input: { text?: string; uploadId?: string }) => {
    setBusy(true);
    try {
      await sendMessage(input);
      onSent();
      return true;
    } catch (error) {
      showError(error);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const sendText = async () => {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (await send({ text: trimmed })) setText("");
  };
  const sendImage = async (chosen: File | undefined) => {
    if (!chosen) return;
    setBusy(true);
    try {
      const uploadId = await uploadSupportImage(chosen);
      await send({ uploadId });
    } catch (error) {
      showError(error);
      setBusy(false);
    } finally {
      if (file.current) file.current.value = "";
    }
  };

  return (
    <div className="support-composer">
      <TextArea
        value={text}
        onChange={setText}
        placeholder={t("support.placeholder")}
        maxLength={textCharsMax}
        autoSize={{ minRows: 2, maxRows: 6 }}
        aria-label={t("support.placeholder")}
        data-testid="support-input"
      />
      <div className="support-composer-actions">
        {images ? (
          <label className="support-attach">
            {t("support.attach")}
            <input
              ref={file}
              type="file"
              accept="image/jpeg,image/png"
              hidden
              data-testid="support-image"
              onChange={(event) => void sendImage(event.target.files?.[0])}
            />
          </label>
        ) : null}
        <Button
          color="primary"
          size="small"
          loading={busy}
          disabled={text.trim().length === 0}
          onClick={() => void sendText()}
          data-testid="support-send"
        >
          {t("support.send")}
        </Button>
      </div>
    </div>
  );
}

/** Signed out, no conversation yet: the visitor's e-mail opens one. */
function VisitorStart({ onStarted }: { onStarted: () => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      await startVisitor(email);
      onStarted();
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="support-visitor">
      <p className="hint">{t("support.visitorIntro")}</p>
      <Input
        type="email"
        value={email}
        onChange={setEmail}
        placeholder={t("support.email")}
        aria-label={t("support.email")}
        maxLength={254}
        data-testid="support-email"
      />
      <Button
        color="primary"
        block
        loading={busy}
        disabled={!/^\S+@\S+\.\S+$/.test(email.trim())}
        onClick={() => void start()}
        data-testid="support-start"
      >
        {t("support.start")}
      </Button>
      <p>
        <Link to="/login">{t("support.signIn")}</Link>
      </p>
    </div>
  );
}

function VisitorNote() {
  const { t } = useTranslation();
  const visitor = getVisitor();
  if (!visitor) return null;
  return (
    <p className="hint" data-testid="support-visitor-note">
      {t("support.visitorEmail", { email: visitor.email })}{" "}
      <button type="button" className="link-button" onClick={forgetVisitor}>
        {t("support.forget")}
      </button>
    </p>
  );
}
