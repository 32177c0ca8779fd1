import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  adminKeys,
  fetchCountryProducts,
  fetchLimits,
  fetchMarketTerms,
  setCountryProductsAction,
  setPerpTermsAction,
  setSpotFeesAction,
} from "../api/admin-api.ts";
import { readInteger } from "../lib/forms.ts";
import { useOperatorSession } from "../lib/operator-session.ts";
import {
  ActionForm,
  AdminPage,
  CheckField,
  EditableTable,
  Field,
  QueryView,
  useAdminT,
} from "./admin-ui.tsx";
import { LimitsSection } from "./limits-section.tsx";

/** The highest fee the server accepts from an operator, in basis points (contract). */
const FEE_BPS_MAX = 100;
const switchableProducts = ["perp", "seconds", "stocks", "savings", "loans"] as const;
type SwitchableProduct = (typeof switchableProducts)[number];

type Editing =
  | { kind: "spot"; marketId: string; maker: string; taker: string }
  | { kind: "perp"; marketId: string; maker: string; taker: string; cap: string; capMax: number };

/** The fee (and, for perpetuals, leverage cap) form of one market; later orders only. */
function TermsForm({ editing, onDone }: { editing: Editing; onDone: () => void }) {
  const t = useAdminT();
  const [maker, setMaker] = useState(editing.maker);
  const [taker, setTaker] = useState(editing.taker);
  const [cap, setCap] = useState(editing.kind === "perp" ? editing.cap : "");
  const makerBps = readInteger(maker, 0, FEE_BPS_MAX);
  const takerBps = readInteger(taker, 0, FEE_BPS_MAX);
  const capValue = editing.kind === "perp" ? readInteger(cap, 1, editing.capMax) : null;
  const valid =
    makerBps !== null && takerBps !== null && (editing.kind === "spot" || capValue !== null);
  return (
    <ActionForm
      submitLabel={t("markets.save")}
      testId="admin-market-terms-form"
      valid={valid}
      run={(reason) =>
        editing.kind === "spot"
          ? setSpotFeesAction(
              editing.marketId,
              { feeBpsMaker: makerBps!, feeBpsTaker: takerBps! },
              reason,
            )
          : setPerpTermsAction(
              editing.marketId,
              { feeBpsMaker: makerBps!, feeBpsTaker: takerBps!, leverageMax: capValue! },
              reason,
            )
      }
      onDone={onDone}
    >
      <p className="admin-hint">{t("markets.editing", { market: editing.marketId })}</p>
      <div className="admin-grid">
        <Field
          label={t("markets.makerBps")}
          value={maker}
          onChange={setMaker}
          inputMode="numeric"
          testId="admin-market-terms-maker"
        />
        <Field
          label={t("markets.takerBps")}
          value={taker}
          onChange={setTaker}
          inputMode="numeric"
          testId="admin-market-terms-taker"
        />
        {editing.kind === "perp" ? (
          <Field
            label={t("markets.leverageMax")}
            value={cap}
            onChange={setCap}
            inputMode="numeric"
            testId="admin-market-terms-cap"
          />
        ) : null}
      </div>
      <p className="admin-hint">
        {editing.kind === "perp"
          ? t("markets.capRule", { max: editing.capMax, fee: FEE_BPS_MAX })
          : t("markets.feeRule", { fee: FEE_BPS_MAX })}
      </p>
    </ActionForm>
  );
}

/** The products switched off for one country: the whole list is replaced. */
function CountryForm({
  initial,
  onDone,
}: {
  initial: { country: string; blocked: readonly SwitchableProduct[] } | null;
  onDone: () => void;
}) {
  const t = useAdminT();
  const [country, setCountry] = useState(initial?.country ?? "");
  const [blocked, setBlocked] = useState<SwitchableProduct[]>([...(initial?.blocked ?? [])]);
  const code = country.trim().toUpperCase();
  return (
    <ActionForm
      submitLabel={t("markets.save")}
      testId="admin-country-form"
      valid={/^[A-Z]{2}$/.test(code)}
      run={(reason) =>
        setCountryProductsAction(
          code,
          switchableProducts.filter((p) => blocked.includes(p)),
          reason,
        )
      }
      onDone={onDone}
    >
      <Field
        label={t("markets.country")}
        value={country}
        onChange={setCountry}
        testId="admin-country-code"
        placeholder="US"
      />
      <fieldset className="admin-fieldset">
        <legend>{t("markets.blocked")}</legend>
        {switchableProducts.map((product) => (
          <CheckField
            key={product}
            label={t(`markets.products.${product}`)}
            checked={blocked.includes(product)}
            onChange={(checked) =>
              setBlocked((list) =>
                checked ? [...list, product] : list.filter((p) => p !== product),
              )
            }
            testId={`admin-country-${product}`}
          />
        ))}
      </fieldset>
    </ActionForm>
  );
}

/**
 * Markets and countries (issue 17): trading fees and perpetual leverage caps (journaled kernel
 * commands, for orders placed after the change), the per-country product switches, and the
 * limits. Every role reads; admin changes terms and limits, compliance and admin change the
 * country switches (the server decides: operator-roles.ts).
 */
export function MarketsPage() {
  const t = useAdminT();
  const role = useOperatorSession()?.operator.role;
  const queryClient = useQueryClient();
  const terms = useQuery({ queryKey: adminKeys.marketTerms(), queryFn: fetchMarketTerms });
  const countries = useQuery({
    queryKey: adminKeys.countryProducts(),
    queryFn: fetchCountryProducts,
  });
  const limits = useQuery({ queryKey: adminKeys.limits(), queryFn: fetchLimits });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [country, setCountry] = useState<{
    key: string;
    row: { country: string; blocked: SwitchableProduct[] } | null;
  } | null>(null);
  const mayEditTerms = role === "admin";
  const mayEditCountries = role === "admin" || role === "compliance";
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage title={t("markets.title")} testId="admin-markets">
      <p className="admin-hint">{t("markets.intro")}</p>
      <QueryView query={terms}>
        {(data) => (
          <>
            <section className="admin-card" data-testid="admin-spot-fees">
              <h2>{t("markets.spot")}</h2>
              <EditableTable
                headers={[t("markets.market"), t("markets.makerBps"), t("markets.takerBps")]}
                rows={data.spot.map((m) => ({
                  key: m.marketId,
                  testId: `admin-spot-fees-${m.marketId}`,
                  cells: [m.marketId, m.feeBpsMaker, m.feeBpsTaker],
                  edit: () =>
                    setEditing({
                      kind: "spot",
                      marketId: m.marketId,
                      maker: String(m.feeBpsMaker),
                      taker: String(m.feeBpsTaker),
                    }),
                }))}
                mayEdit={mayEditTerms}
              />
            </section>
            <section className="admin-card" data-testid="admin-perp-terms">
              <h2>{t("markets.perp")}</h2>
              <EditableTable
                headers={[
                  t("markets.market"),
                  t("markets.makerBps"),
                  t("markets.takerBps"),
                  t("markets.leverageMax"),
                  t("markets.leverageMaxDefined"),
                ]}
                rows={data.perp.map((m) => ({
                  key: m.marketId,
                  cells: [
                    m.marketId,
                    m.feeBpsMaker,
                    m.feeBpsTaker,
                    m.leverageMax,
                    m.leverageMaxDefined,
                  ],
                  edit: () =>
                    setEditing({
                      kind: "perp",
                      marketId: m.marketId,
                      maker: String(m.feeBpsMaker),
                      taker: String(m.feeBpsTaker),
                      cap: String(m.leverageMax),
                      capMax: m.leverageMaxDefined,
                    }),
                }))}
                mayEdit={mayEditTerms}
              />
              <p className="admin-hint">{t("markets.capExisting")}</p>
            </section>
            {editing ? (
              <TermsForm
                key={`${editing.kind}:${editing.marketId}`}
                editing={editing}
                onDone={() => {
                  setEditing(null);
                  refresh();
                }}
              />
            ) : null}
          </>
        )}
      </QueryView>
      <QueryView query={countries}>
        {(data) => (
          <section className="admin-card" data-testid="admin-country-products">
            <h2>{t("markets.countries")}</h2>
            {data.countries.length === 0 ? (
              <p className="admin-state">{t("markets.noCountries")}</p>
            ) : (
              <EditableTable
                headers={[t("markets.country"), t("markets.blocked")]}
                rows={data.countries.map((row) => ({
                  key: row.country,
                  cells: [
                    row.country,
                    row.blocked.map((p) => t(`markets.products.${p}`)).join(", "),
                  ],
                  edit: () => setCountry({ key: row.country, row }),
                }))}
                mayEdit={mayEditCountries}
              />
            )}
            {mayEditCountries ? (
              <button
                type="button"
                className="admin-button admin-secondary"
                onClick={() => setCountry({ key: `new-${Date.now()}`, row: null })}
              >
                {t("markets.newCountry")}
              </button>
            ) : null}
            {country ? (
              <CountryForm
                key={country.key}
                initial={country.row}
                onDone={() => {
                  setCountry(null);
                  refresh();
                }}
              />
            ) : null}
          </section>
        )}
      </QueryView>
      <QueryView query={limits}>
        {(data) => <LimitsSection limits={data} mayEdit={mayEditTerms} onChanged={refresh} />}
      </QueryView>
    </AdminPage>
  );
}
