import type { SavingsPlanView } from "@candor/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Tabs } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { isDemo, useSession } from "../../../lib/session.ts";
import { fetchSavingsPlans, fetchSavingsSubscriptions, savingsKeys } from "../api/savings-api.ts";
import { PlanCard } from "./plan-card.tsx";
import { RiskText } from "./risk-text.tsx";
import { SubscribeSheet } from "./subscribe-sheet.tsx";
import { SubscriptionCard } from "./subscription-card.tsx";

type Tab = "savings" | "mining" | "mine";

/**
 * Savings and mining (spec managed funds and NFT mining): plans with the reserve behind their
 * promises and a sold-out state, the subscribe sheet with the risks in plain words, and the
 * user's subscriptions.
 */
export function SavingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const demo = isDemo(session);
  const mode = demo ? "demo" : "real";
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<Tab>("savings");
  const [chosen, setChosen] = useState<SavingsPlanView | undefined>();
  const plans = useQuery({
    queryKey: savingsKeys.plans(mode),
    queryFn: () => fetchSavingsPlans(mode),
    refetchInterval: 10_000,
  });
  const subscriptions = useQuery({
    queryKey: savingsKeys.subscriptions(mode),
    queryFn: () => fetchSavingsSubscriptions(),
    enabled: session !== null && tab === "mine",
    refetchInterval: 5_000,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: savingsKeys.all });

  const subscribe = (plan: SavingsPlanView) => {
    if (!session) {
      navigate("/login");
      return;
    }
    setChosen(plan);
  };

  const planList = (kind: "savings" | "mining") => {
    if (plans.isPending) return <LoadingState />;
    if (plans.isError) {
      return <ErrorState message={plans.error.message} onRetry={() => void plans.refetch()} />;
    }
    if (!plans.data.enabled) return <p data-testid="savings-disabled">{t("savings.disabled")}</p>;
    const items = plans.data.items.filter((p) => p.kind === kind);
    return (
      <>
        <RiskText mining={kind === "mining"} demo={demo} />
        {items.length === 0 ? <p>{t("savings.none")}</p> : null}
        {items.map((plan) => (
          <PlanCard key={plan.planId} plan={plan} onSubscribe={subscribe} />
        ))}
      </>
    );
  };

  const mine = () => {
    if (!session) return <p>{t("savings.signIn")}</p>;
    if (subscriptions.isPending) return <LoadingState />;
    if (subscriptions.isError) {
      return (
        <ErrorState
          message={subscriptions.error.message}
          onRetry={() => void subscriptions.refetch()}
        />
      );
    }
    const items = subscriptions.data.items;
    if (items.length === 0) return <p data-testid="no-subscriptions">{t("savings.sub.none")}</p>;
    return items.map((s) => (
      <SubscriptionCard key={s.subscriptionId} subscription={s} onChanged={refresh} />
    ));
  };

  return (
    <section className="page" aria-labelledby="savings-title">
      <h1 id="savings-title">{t("savings.title")}</h1>
      <Tabs activeKey={tab} onChange={(key) => setTab(key as Tab)}>
        <Tabs.Tab title={t("savings.tabs.savings")} key="savings">
          {planList("savings")}
        </Tabs.Tab>
        <Tabs.Tab title={t("savings.tabs.mining")} key="mining">
          {planList("mining")}
        </Tabs.Tab>
        <Tabs.Tab title={<span data-testid="tab-mine">{t("savings.tabs.mine")}</span>} key="mine">
          {mine()}
        </Tabs.Tab>
      </Tabs>
      <SubscribeSheet
        plan={chosen}
        demo={demo}
        onClose={() => setChosen(undefined)}
        onDone={() => {
          setChosen(undefined);
          refresh();
          setTab("mine");
        }}
      />
    </section>
  );
}
