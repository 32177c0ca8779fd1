import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { adminKeys, fetchUploadImage } from "../api/admin-api.ts";
import { useAdminT, useErrorText } from "./admin-ui.tsx";

/**
 * One uploaded document (identity photo, bank transfer proof), fetched with the operator's
 * token and shown by object URL; a link opens it full size.
 */
export function DocumentImage({ uploadId, label }: { uploadId: string; label: string }) {
  const t = useAdminT();
  const errorText = useErrorText();
  const image = useQuery({
    queryKey: adminKeys.upload(uploadId),
    queryFn: () => fetchUploadImage(uploadId),
    staleTime: Infinity,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image.data) return;
    const objectUrl = URL.createObjectURL(image.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [image.data]);
  return (
    <figure className="admin-document" data-testid="admin-document">
      {image.isError ? (
        <p className="admin-error" role="alert">
          {errorText(image.error)}
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
