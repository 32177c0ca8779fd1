import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Checkbox, Input, Selector } from "antd-mobile";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { Amount } from "../../../components/ui/amount.tsx";
import { ErrorState, LoadingState } from "../../../components/ui/states.tsx";
import { confirm } from "../../../lib/dialogs.tsx";
import { showError, showSuccess, withLoading } from "../../../lib/feedback.ts";
import { newIdempotencyKey } from "../../../lib/idempotency.ts";
import { useFormat } from "../../../lib/format.ts";
import { isDemo, useSession } from "../../../lib/session.ts";
import { applyLoan, fetchLoanProducts, fetchLoanQuote, loansKeys } from "../api/loans-api.ts";
import { bpsToPercent, decimalsOf, ppmToPercent } from "../lib/loans-math.ts";

const decimal = /^\d{1,20}(\.\d{1,18})?$/;
const refusals = [
  "loan_amount_invalid",
  "loan_product_closed",
  "no_reference_price",
  "loan_ltv_too_high",
  "reference_price_stale",
  "loan_pool_insufficient",
] as const;
type Refusal = (typeof refusals)[number];
const isRefusal = (code: string): code is Refusal => (refusals as readonly string[]).includes(code);

/**
 * ToLoan: pick a product, enter the amount and the collateral, see the LTV, the liquidation
 * price and every cost at the last tape price, tick the agreement, confirm.
 */
export function LoanPage() {
  const { t } = useTranslation();
  const format = useFormat();
  /** A percent decimal string in the locale's digits, without the sign (texts carry it). */
  const number = (value: string) => format.fixed(value, decimalsOf(value));
  /** A percent decimal string with the locale's percent pattern. */
  const percent = (value: string) => format.percent(value, { decimals: decimalsOf(value) });
  const navigate = useNavigate();
  const session = useSession();
  const mode = isDemo(session) ? "demo" : "real";
  const queryClient = useQueryClient();
  const products = useQuery({
    queryKey: loansKeys.products(mode),
    queryFn: () => fetchLoanProducts(mode),
    refetchInterval: 5_000,
  });
  const [productId, setProductId] = useState<string | undefined>();
  const [amount, setAmount] = useState("");
  const [collateral, setCollateral] = useState("");
  const [agreed, setAgreed] = useState(false);
  const product =
    products.data?.items.find((p) => p.productId === productId) ??
    products.data?.items.find((p) => p.open && !p.reviewRequired) ??
    products.data?.items[0];
  const input = product ? { productId: product.productId, amount, collateral } : undefined;
  const ready = !!session && !!input && decimal.test(amount) && decimal.test(collateral);
  const quote = useQuery({
    queryKey: loansKeys.quote(input ?? {}),
    queryFn: () => fetchLoanQuote(input!),
    enabled: ready,
    refetchInterval: 5_000,
  });

  if (products.isPending) return <LoadingState />;
  if (products.isError) {
    return <ErrorState message={products.error.message} onRetry={() => void products.refetch()} />;
  }
  const q = ready ? quote.data?.quote : undefined;

  const borrow = async () => {
    if (!product || !q) return;
    if (!session) {
      navigate("/login");
      return;
    }
    if (!agreed) {
      showError(new Error(t("loans.agreementRequired")));
      return;
    }
    const confirmed = await confirm({
      content: t("loans.confirm", {
        amount,
        asset: product.loanAsset,
        collateral,
        collateralAsset: product.collateralAsset,
        due: q.dueAtMaturity,
        days: product.terms.termDays,
        price: q.liquidationPrice ?? "--",
      }),
      "aria-label": t("loans.confirmTitle"),
    });
    if (!confirmed) return;
    try {
      const result = await withLoading(
        applyLoan({
          requestId: newIdempotencyKey(),
          productId: product.productId,
          amount,
          collateral,
          agreement: true,
        }),
      );
      showSuccess(result.loan.status === "pending" ? t("loans.submitted") : t("loans.borrowed"));
      void queryClient.invalidateQueries({ queryKey: loansKeys.all });
      navigate("/loans/mine");
    } catch (error) {
      showError(error);
    }
  };

  return (
    <section className="page" aria-labelledby="loan-title">
      <div className="row">
        <h1 id="loan-title">{t("loans.title")}</h1>
        <Link to="/loans/mine" data-testid="my-loans-link">
          {t("loans.mine.title")}
        </Link>
      </div>
      <p>{t("loans.intro")}</p>
      {mode === "demo" ? <p data-testid="loan-demo-note">{t("loans.demoNote")}</p> : null}
      <Selector<string>
        aria-label={t("loans.product")}
        showCheckMark={false}
        columns={1}
        value={product ? [product.productId] : []}
        onChange={(value) => value[0] && setProductId(value[0])}
        options={(products.data.items ?? []).map((p) => ({
          label: t("loans.productLabel", {
            asset: p.loanAsset,
            collateral: p.collateralAsset,
            days: p.terms.termDays,
            rate: number(ppmToPercent(p.terms.dailyRatePpm)),
          }),
          value: p.productId,
          disabled: !p.open,
        }))}
        data-testid="loan-products"
      />
      {product ? (
        <>
          <dl className="detail-list" data-testid="loan-terms">
            <dt>{t("loans.limits")}</dt>
            <dd>
              <Amount value={product.amountMin} /> – <Amount value={product.amountMax} />{" "}
              {product.loanAsset}
            </dd>
            <dt>{t("loans.pool")}</dt>
            <dd>
              <Amount value={product.poolAvailable} /> {product.loanAsset}
            </dd>
            <dt>{t("loans.dailyRate")}</dt>
            <dd>{percent(ppmToPercent(product.terms.dailyRatePpm))}</dd>
            <dt>{t("loans.ltvLimits")}</dt>
            <dd>
              {t("loans.ltvLimitsValue", {
                initial: number(bpsToPercent(product.terms.ltvInitialBps)),
                call: number(bpsToPercent(product.terms.ltvMarginCallBps)),
                liquidation: number(bpsToPercent(product.terms.ltvLiquidationBps)),
              })}
            </dd>
            <dt>{t("loans.lastPrice")}</dt>
            <dd>
              <Amount value={product.lastPrice ?? undefined} /> ({product.instrumentId})
            </dd>
          </dl>
          <ul className="loan-terms-list">
            <li>{t("loans.terms.lumpSum", { days: product.terms.termDays })}</li>
            <li>
              {t("loans.terms.overdue", {
                percent: number(bpsToPercent(product.terms.overdueRateBps)),
              })}
            </li>
            <li>
              {t("loans.terms.lateFee", {
                percent: number(bpsToPercent(product.terms.lateFeeBpsPerDay)),
              })}
            </li>
            <li>{t("loans.terms.grace", { days: product.terms.graceDays })}</li>
            <li>
              {t("loans.terms.early", {
                percent: number(bpsToPercent(product.terms.earlyRepaymentBps)),
              })}
            </li>
            <li>{t("loans.terms.release")}</li>
            <li>{t("loans.terms.pool")}</li>
            {product.reviewRequired ? <li>{t("loans.terms.review")}</li> : null}
          </ul>
          <Input
            aria-label={t("loans.amount", { asset: product.loanAsset })}
            placeholder={t("loans.amount", { asset: product.loanAsset })}
            className="boxed-input"
            inputMode="decimal"
            value={amount}
            onChange={setAmount}
            data-testid="loan-amount"
          />
          <Input
            aria-label={t("loans.collateral", { asset: product.collateralAsset })}
            placeholder={t("loans.collateral", { asset: product.collateralAsset })}
            className="boxed-input"
            inputMode="decimal"
            value={collateral}
            onChange={setCollateral}
            data-testid="loan-collateral"
          />
          {q ? (
            <dl className="detail-list" data-testid="loan-quote">
              <dt>{t("loans.ltv")}</dt>
              <dd data-testid="loan-ltv">
                {q.ltvBps === null ? "--" : percent(bpsToPercent(q.ltvBps))}
              </dd>
              <dt>{t("loans.liquidationPrice")}</dt>
              <dd data-testid="loan-liquidation-price">
                <Amount value={q.liquidationPrice ?? undefined} decimalsMax={2} />
              </dd>
              <dt>{t("loans.marginCallPrice")}</dt>
              <dd>
                <Amount value={q.marginCallPrice ?? undefined} decimalsMax={2} />
              </dd>
              <dt>{t("loans.interestForTerm")}</dt>
              <dd data-testid="loan-interest">
                <Amount value={q.interestForTerm} /> {product.loanAsset}
              </dd>
              <dt>{t("loans.dueAtMaturity")}</dt>
              <dd data-testid="loan-due">
                <Amount value={q.dueAtMaturity} /> {product.loanAsset}
              </dd>
              <dt>{t("loans.collateralRequired")}</dt>
              <dd>
                <Amount value={q.collateralRequired ?? undefined} /> {product.collateralAsset}
              </dd>
              {q.refusal ? (
                <>
                  <dt>{t("loans.refusal")}</dt>
                  <dd data-testid="loan-refusal">
                    {isRefusal(q.refusal) ? t(`loans.refusals.${q.refusal}`) : q.refusal}
                  </dd>
                </>
              ) : null}
            </dl>
          ) : null}
          <Checkbox checked={agreed} onChange={setAgreed} data-testid="loan-agreement">
            {t("loans.agreement")}
          </Checkbox>
          <Button
            block
            color="primary"
            disabled={!q || q.refusal !== null}
            onClick={() => void borrow()}
            data-testid="loan-borrow"
          >
            {product.reviewRequired ? t("loans.apply") : t("loans.borrow")}
          </Button>
        </>
      ) : (
        <p>{t("loans.noProducts")}</p>
      )}
    </section>
  );
}
