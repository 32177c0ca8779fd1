import { locales, nativeNameByLocale, type Locale } from "@candor/contract/locales";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  adminKeys,
  fetchBanners,
  publishBannerAction,
  uploadOperatorImage,
  withdrawBannerAction,
} from "../api/admin-api.ts";
import { isBannerLink, readInteger } from "../lib/forms.ts";
import {
  ActionForm,
  Field,
  QueryView,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";

const dayMs = 86_400_000;

/**
 * Home-page banners (issue 17): publish one (title, link, one language or all, shown from now
 * for a number of days or until withdrawn) and withdraw it; both audited with the reason.
 */
export function BannersSection() {
  const t = useAdminT();
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  const banners = useQuery({ queryKey: adminKeys.banners(), queryFn: fetchBanners });
  const [title, setTitle] = useState("");
  const [link, setLink] = useState("");
  const [locale, setLocale] = useState<Locale | "all">("all");
  const [days, setDays] = useState("7");
  const [image, setImage] = useState<File | null>(null);
  // A new file input after each publication, so the chosen file is cleared with the fields.
  const [imageInputKey, setImageInputKey] = useState(0);
  const dayCount = days.trim() === "" ? null : readInteger(days, 1, 365);
  const valid =
    title.trim().length > 0 &&
    title.trim().length <= 120 &&
    isBannerLink(link) &&
    (days.trim() === "" || dayCount !== null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.banners() });
  const state = (b: { endsAtMs: number | null; withdrawnAtMs: number | null }) =>
    b.withdrawnAtMs !== null
      ? t("banners.withdrawn")
      : b.endsAtMs !== null && b.endsAtMs <= Date.now()
        ? t("banners.ended")
        : t("banners.live");
  return (
    <section className="admin-card" data-testid="admin-banners">
      <h2>{t("banners.title")}</h2>
      <p className="admin-hint">{t("banners.intro")}</p>
      <ActionForm
        submitLabel={t("banners.publish")}
        testId="admin-banner-publish"
        valid={valid}
        run={async (reason) => {
          const imageUploadId =
            image === null ? null : await uploadOperatorImage(image, "banner_image");
          const startsAtMs = Date.now();
          return publishBannerAction(
            {
              title: title.trim(),
              link: link.trim() === "" ? null : link.trim(),
              locale: locale === "all" ? null : locale,
              startsAtMs,
              endsAtMs: dayCount === null ? null : startsAtMs + dayCount * dayMs,
              imageUploadId,
            },
            reason,
          );
        }}
        onDone={() => {
          setTitle("");
          setLink("");
          setImage(null);
          setImageInputKey((key) => key + 1);
          refresh();
        }}
      >
        <div className="admin-grid">
          <Field
            label={t("banners.bannerTitle")}
            value={title}
            onChange={setTitle}
            testId="admin-banner-title"
          />
          <Field
            label={t("banners.link")}
            value={link}
            onChange={setLink}
            placeholder="#/savings"
            testId="admin-banner-link"
          />
          <label className="admin-field">
            <span>{t("banners.image")}</span>
            <input
              key={imageInputKey}
              type="file"
              accept="image/png,image/jpeg"
              onChange={(event) => setImage(event.target.files?.[0] ?? null)}
              data-testid="admin-banner-image"
            />
          </label>
          <SelectField
            label={t("banners.language")}
            value={locale}
            onChange={setLocale}
            options={[
              { value: "all" as const, text: t("banners.allLanguages") },
              ...locales.map((value) => ({ value, text: nativeNameByLocale[value] })),
            ]}
          />
          <Field
            label={t("banners.days")}
            value={days}
            onChange={setDays}
            inputMode="numeric"
            testId="admin-banner-days"
          />
        </div>
        {!isBannerLink(link) ? <p className="admin-hint">{t("banners.linkRule")}</p> : null}
      </ActionForm>
      <QueryView
        query={banners}
        isEmpty={(data) => data.items.length === 0}
        emptyText={t("banners.none")}
      >
        {(data) => (
          <ul className="admin-list">
            {data.items.map((banner) => (
              <li key={banner.id} data-testid="admin-banner-row">
                <strong>{banner.title}</strong> · {banner.link ?? "--"} ·{" "}
                {banner.image === null
                  ? ""
                  : `${t("banners.imageShort")} ${banner.image.width}×${banner.image.height} · `}
                {banner.locale === null
                  ? t("banners.allLanguages")
                  : nativeNameByLocale[banner.locale]}{" "}
                · {format.time(banner.startsAtMs)} – {format.time(banner.endsAtMs)} ·{" "}
                {state(banner)}
                {banner.withdrawnAtMs === null ? (
                  <ActionForm
                    submitLabel={t("banners.withdraw")}
                    testId={`admin-banner-withdraw-${banner.id}`}
                    run={(reason) => withdrawBannerAction(banner.id, reason)}
                    onDone={refresh}
                    danger
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
