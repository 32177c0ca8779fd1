import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { fetchSecondsContract, secondsKeys } from "../api/seconds-api.ts";
import { ContractDetails } from "./contract-details.tsx";

/** One contract with both tape ticks; refreshes while it is in trade. */
export function ContractPage() {
  const { t } = useTranslation();
  const { contractId = "" } = useParams();
  const detail = useQuery({
    queryKey: secondsKeys.contract(contractId),
    queryFn: () => fetchSecondsContract(contractId),
    refetchInterval: (query) => (query.state.data?.contract.status === "settled" ? false : 1_000),
  });
  return (
    <section className="page" aria-labelledby="contract-title">
      <h1 id="contract-title">{t("seconds.contract.title")}</h1>
      {detail.isPending ? <LoadingState /> : null}
      {detail.isError ? (
        <ErrorState message={detail.error.message} onRetry={() => void detail.refetch()} />
      ) : null}
      {detail.isSuccess ? <ContractDetails contract={detail.data.contract} /> : null}
      <Link to="/options/orders">{t("seconds.orders.title")}</Link>
    </section>
  );
}
