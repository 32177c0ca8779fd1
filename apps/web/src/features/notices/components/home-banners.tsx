import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { callEndpoint } from "../../../lib/api-client.ts";
import { noticesEndpoints } from "../api/endpoints.ts";
import { noticeKeys } from "../api/notices-api.ts";

/**
 * The operator's banners shown now, in the interface language (back-office content, issue 17):
 * an optional image above a title, linking to an app route or to an https page in a new tab.
 * Nothing while there are none, or when they cannot be loaded (a banner is never essential).
 * The image is decorative (the title says what the banner says), so its text alternative is
 * empty.
 */
export function HomeBanners() {
  const { t, i18n } = useTranslation();
  const banners = useQuery({
    queryKey: noticeKeys.banners(i18n.language),
    queryFn: () => callEndpoint(noticesEndpoints.listBanners),
  });
  const items = banners.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <ul className="home-banners" aria-label={t("home.banners")} data-testid="home-banners">
      {items.map((banner) => {
        const content = (
          <>
            {banner.image === null ? null : (
              <img
                className="home-banner-image"
                src={`/api/v1/banners/${encodeURIComponent(banner.id)}/image`}
                width={banner.image.width}
                height={banner.image.height}
                alt=""
                loading="lazy"
                data-testid="home-banner-image"
              />
            )}
            <span>{banner.title}</span>
          </>
        );
        return (
          <li key={banner.id} className="home-banner">
            {banner.link === null ? (
              content
            ) : banner.link.startsWith("#/") ? (
              <Link to={banner.link.slice(1)}>{content}</Link>
            ) : (
              <a href={banner.link} target="_blank" rel="noopener noreferrer">
                {content}
              </a>
            )}
          </li>
        );
      })}
    </ul>
  );
}
