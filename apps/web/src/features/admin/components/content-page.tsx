import type { NewsCategory } from "@candor/contract";
import { locales, nativeNameByLocale } from "@candor/contract/locales";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  adminKeys,
  fetchNews,
  fetchNotices,
  publishNewsAction,
  publishNoticeAction,
  type ContentLocale,
  type ContentTexts,
} from "../api/admin-api.ts";
import {
  ActionForm,
  AdminPage,
  Field,
  QueryView,
  SelectField,
  useAdminFormat,
  useAdminT,
} from "./admin-ui.tsx";
import { BannersSection } from "./banners-section.tsx";

const categories: readonly NewsCategory[] = ["market", "crypto", "stocks", "platform"];

/** Title and body in English (required) and, optionally, one more language. */
function useTextsForm() {
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [locale, setLocale] = useState<ContentLocale>("zh-Hant");
  const [otherTitle, setOtherTitle] = useState("");
  const [otherBody, setOtherBody] = useState("");
  const texts = (): ContentTexts => ({
    en: { title: title.trim(), body: body.trim() },
    ...(locale !== "en" && otherTitle.trim() && otherBody.trim()
      ? { [locale]: { title: otherTitle.trim(), body: otherBody.trim() } }
      : {}),
  });
  const reset = () => {
    setTitle("");
    setBody("");
    setOtherTitle("");
    setOtherBody("");
  };
  const valid = title.trim().length > 0 && body.trim().length > 0;
  return {
    texts,
    reset,
    valid,
    fields: { title, setTitle, body, setBody, locale, setLocale },
    other: { otherTitle, setOtherTitle, otherBody, setOtherBody },
  };
}

function TextsFields({ form, testId }: { form: ReturnType<typeof useTextsForm>; testId: string }) {
  const t = useAdminT();
  const { fields, other } = form;
  return (
    <>
      <Field
        label={t("content.titleEn")}
        value={fields.title}
        onChange={fields.setTitle}
        testId={`${testId}-title`}
      />
      <label className="admin-field">
        <span>{t("content.bodyEn")}</span>
        <textarea
          value={fields.body}
          onChange={(event) => fields.setBody(event.target.value)}
          rows={4}
          data-testid={`${testId}-body`}
        />
      </label>
      <SelectField
        label={t("content.otherLanguage")}
        value={fields.locale}
        onChange={fields.setLocale}
        options={locales
          .filter((locale) => locale !== "en")
          .map((locale) => ({ value: locale, text: nativeNameByLocale[locale] }))}
      />
      <Field
        label={t("content.titleOther")}
        value={other.otherTitle}
        onChange={other.setOtherTitle}
      />
      <label className="admin-field">
        <span>{t("content.bodyOther")}</span>
        <textarea
          value={other.otherBody}
          onChange={(event) => other.setOtherBody(event.target.value)}
          rows={4}
        />
      </label>
    </>
  );
}

/** Content: publish news and notices (texts per language); the latest of each. */
export function ContentPage() {
  const t = useAdminT();
  const format = useAdminFormat();
  const queryClient = useQueryClient();
  const news = useQuery({ queryKey: adminKeys.news(), queryFn: fetchNews });
  const notices = useQuery({ queryKey: adminKeys.notices(), queryFn: fetchNotices });
  const newsForm = useTextsForm();
  const noticeForm = useTextsForm();
  const [category, setCategory] = useState<NewsCategory>("platform");
  const [symbol, setSymbol] = useState("");
  const refresh = () => void queryClient.invalidateQueries({ queryKey: adminKeys.all });
  return (
    <AdminPage title={t("content.pageTitle")} testId="admin-content">
      <div className="admin-columns">
        <section>
          <h2>{t("content.publishNotice")}</h2>
          <ActionForm
            submitLabel={t("content.publish")}
            testId="admin-notice-publish"
            valid={noticeForm.valid}
            run={(reason) => publishNoticeAction({ texts: noticeForm.texts() }, reason)}
            onDone={() => {
              noticeForm.reset();
              refresh();
            }}
          >
            <TextsFields form={noticeForm} testId="admin-notice" />
          </ActionForm>
          <h2>{t("content.latestNotices")}</h2>
          <QueryView query={notices} isEmpty={(data) => data.items.length === 0}>
            {(data) => (
              <ul className="admin-list">
                {data.items.map((item) => (
                  <li key={item.id}>
                    <strong>{item.title}</strong> · {format.time(item.publishedAtMs)}
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </section>
        <section>
          <h2>{t("content.publishNews")}</h2>
          <ActionForm
            submitLabel={t("content.publish")}
            testId="admin-news-publish"
            valid={newsForm.valid && (symbol === "" || /^[A-Za-z0-9._-]{1,32}$/.test(symbol))}
            run={(reason) =>
              publishNewsAction(
                { category, symbol: symbol.trim() || null, texts: newsForm.texts() },
                reason,
              )
            }
            onDone={() => {
              newsForm.reset();
              refresh();
            }}
          >
            <SelectField
              label={t("content.category")}
              value={category}
              onChange={setCategory}
              options={categories.map((value) => ({
                value,
                text: t(`content.categories.${value}`),
              }))}
            />
            <Field label={t("content.symbol")} value={symbol} onChange={setSymbol} />
            <TextsFields form={newsForm} testId="admin-news" />
          </ActionForm>
          <h2>{t("content.latestNews")}</h2>
          <QueryView query={news} isEmpty={(data) => data.items.length === 0}>
            {(data) => (
              <ul className="admin-list">
                {data.items.map((item) => (
                  <li key={item.id}>
                    <strong>{item.title}</strong> · {t(`content.categories.${item.category}`)} ·{" "}
                    {format.time(item.publishedAtMs)}
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </section>
      </div>
      <BannersSection />
    </AdminPage>
  );
}
