import { useBlobUrl } from "../../../lib/use-blob-url.ts";
import { adminKeys, fetchUploadImage } from "../api/admin-api.ts";
import { useAdminT, useErrorText } from "./admin-ui.tsx";

/**
 * One uploaded document (identity photo, bank transfer proof), fetched with the operator's
 * token and shown by object URL; a link opens it full size.
 */
export function DocumentImage({ uploadId, label }: { uploadId: string; label: string }) {
  const t = useAdminT();
  const errorText = useErrorText();
  const { url, error } = useBlobUrl(adminKeys.upload(uploadId), () => fetchUploadImage(uploadId));
  return (
    <figure className="admin-document" data-testid="admin-document">
      {error ? (
        <p className="admin-error" role="alert">
          {errorText(error)}
        </p>
      ) : url ? (
        <a href={url} target="_blank" rel="noreferrer">
          <img src={url} alt={label} />
        </a>
      ) : (
        <p role="status">{t("common.loading")}</p>
      )}
      <figcaption>{label}</figcaption>
    </figure>
  );
}
