import type { BankCardView } from "@candor/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Input } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState, ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { confirmThenRun } from "../../../lib/dialogs.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { accountKeys, addBankCard, deleteBankCard, useBankCards } from "../api/accounts-api.ts";

/**
 * Bank card binding (spec §3 "Bank card"): cardholder, bank, branch and card or account number;
 * lists show the number masked; delete after "Are you sure you want to delete?". Real money
 * only: a simulated account is told it cannot deposit or withdraw.
 */
export function BankCardsPage() {
  const { t } = useTranslation();
  const demo = isDemo(useSession());
  return (
    <section className="page" aria-labelledby="bank-cards-title">
      <h1 id="bank-cards-title">{t("wallet.bankCards.title")}</h1>
      {demo ? (
        <p className="hint" data-testid="bank-cards-demo">
          {t("wallet.bankCards.demoNote")}
        </p>
      ) : (
        <BankCardsList />
      )}
    </section>
  );
}

function BankCardsList() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const cards = useBankCards();
  const [cardholder, setCardholder] = useState("");
  const [bankName, setBankName] = useState("");
  const [branch, setBranch] = useState("");
  const [cardNumber, setCardNumber] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: accountKeys.bankCards() });

  const add = async () => {
    try {
      await withLoading(addBankCard({ cardholder, bankName, branch, cardNumber }));
      showSuccess();
      setCardholder("");
      setBankName("");
      setBranch("");
      setCardNumber("");
    } catch (error) {
      showError(error);
    }
    refresh();
  };
  const remove = async (card: BankCardView) => {
    const outcome = await confirmThenRun(t("wallet.addresses.deleteConfirm"), () =>
      deleteBankCard(card.cardId),
    );
    if (outcome !== "dismissed") refresh();
  };
  const field = (
    label: string,
    value: string,
    onChange: (v: string) => void,
    testId: string,
    inputMode?: "numeric",
  ) => (
    <div className="order-field">
      <Input
        aria-label={label}
        placeholder={label}
        value={value}
        maxLength={testId === "bank-card-number" ? 50 : 100}
        onChange={onChange}
        inputMode={inputMode}
        data-testid={testId}
      />
    </div>
  );

  return (
    <>
      {cards.isPending ? <LoadingState /> : null}
      {cards.isError ? (
        <ErrorState message={cards.error.message} onRetry={() => void cards.refetch()} />
      ) : null}
      {cards.isSuccess && cards.data.items.length === 0 ? (
        <EmptyState text={t("wallet.bankCards.empty")} />
      ) : null}
      <ul className="account-list">
        {cards.data?.items.map((card) => (
          <li key={card.cardId} className="order-card" data-testid="bank-card-item">
            <div className="order-card-head">
              <strong>{card.bankName}</strong>
              <Button size="mini" onClick={() => void remove(card)} data-testid="bank-card-delete">
                {t("wallet.addresses.delete")}
              </Button>
            </div>
            <code className="hash" data-testid="bank-card-masked">
              {card.cardNumberMasked}
            </code>
            <dl>
              <dt>{t("wallet.bankCards.cardholder")}</dt>
              <dd>{card.cardholder}</dd>
              <dt>{t("wallet.bankCards.branch")}</dt>
              <dd>{card.branch}</dd>
            </dl>
          </li>
        ))}
      </ul>
      <h2>{t("wallet.bankCards.add")}</h2>
      <form
        className="order-form"
        onSubmit={(event) => {
          event.preventDefault();
          void add();
        }}
      >
        {field(t("wallet.bankCards.cardholder"), cardholder, setCardholder, "bank-card-holder")}
        {field(t("wallet.bankCards.bankName"), bankName, setBankName, "bank-card-bank")}
        {field(t("wallet.bankCards.branch"), branch, setBranch, "bank-card-branch")}
        {field(t("wallet.bankCards.number"), cardNumber, setCardNumber, "bank-card-number")}
        <p className="hint">{t("wallet.bankCards.numberHint")}</p>
        <Button
          block
          color="primary"
          type="submit"
          disabled={!cardholder.trim() || !bankName.trim() || !branch.trim() || !cardNumber.trim()}
          data-testid="bank-card-save"
        >
          {t("wallet.bankCards.save")}
        </Button>
      </form>
    </>
  );
}
