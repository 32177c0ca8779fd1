import { useQuery, type QueryKey } from "@tanstack/react-query";
import { useEffect, useState } from "react";

/**
 * An image fetched as a blob (an upload served only with a token or header, which an
 * `<img src>` cannot send) and shown by object URL, revoked when the image changes or the
 * component goes. Uploads never change, so the blob is never stale.
 */
export function useBlobUrl(queryKey: QueryKey, fetchBlob: () => Promise<Blob>) {
  const image = useQuery({ queryKey, queryFn: fetchBlob, staleTime: Infinity });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!image.data) return;
    const objectUrl = URL.createObjectURL(image.data);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [image.data]);
  return { url, error: image.isError ? image.error : null };
}
