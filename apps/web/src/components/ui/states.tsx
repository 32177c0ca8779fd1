import type { UseQueryResult } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";

/** "List empty", or another text, for a list with nothing in it. */
export function EmptyState({ text }: { text?: string }) {
  const { t } = useTranslation();
  return (
    <div className="state" role="status" data-testid="empty-state">
      <p>{text ?? t("common.listEmpty")}</p>
    </div>
  );
}

/** "No more data" under the last item of a list. */
export function EndOfList() {
  const { t } = useTranslation();
  return <p className="end-of-list">{t("common.noMoreData")}</p>;
}

/**
 * An honest failure: what went wrong in the user's language (the server's message when there is
 * one) and a retry; never stand-in data.
 */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="state" role="alert" data-testid="error-state">
      <p className="state-title">{t("common.loadFailed")}</p>
      <p>{message}</p>
      {onRetry ? (
        <Button size="small" onClick={onRetry}>
          {t("common.retry")}
        </Button>
      ) : null}
    </div>
  );
}

/** "Please wait..." inline, for a part of a page that is loading. */
export function LoadingState() {
  const { t } = useTranslation();
  return (
    <p className="state" role="status">
      {t("common.loading")}
    </p>
  );
}

/**
 * The states of a list's query above the list: loading, an honest failure with a retry, or
 * "list empty" once it has loaded with no items; nothing while it shows items.
 */
export function ListStates({
  query,
}: {
  query: UseQueryResult<{ items: readonly unknown[] }, Error>;
}) {
  return (
    <>
      {query.isPending ? <LoadingState /> : null}
      {query.isError ? (
        <ErrorState message={query.error.message} onRetry={() => void query.refetch()} />
      ) : null}
      {query.isSuccess && query.data.items.length === 0 ? <EmptyState /> : null}
    </>
  );
}
