import QRCode from "qrcode";
import { useEffect, useState } from "react";

/**
 * A QR code of `text` as an SVG image (a deposit address, an authenticator's otpauth:// URI),
 * drawn on the device: the text never leaves it.
 */
export function QrImage({
  text,
  alt,
  size = 180,
  testId,
}: {
  text: string;
  alt: string;
  size?: number;
  testId?: string;
}) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toString(text, { type: "svg", margin: 1, errorCorrectionLevel: "M" }).then(
      (svg) => {
        if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      },
    );
    return () => {
      live = false;
    };
  }, [text]);
  return src ? <img src={src} width={size} height={size} alt={alt} data-testid={testId} /> : null;
}
