/** A multipart/form-data body with one part, as a browser or an attacker would send it. */
export function multipart(
  bytes: Buffer,
  options: { fileName?: string; type?: string; field?: string } = {},
) {
  const boundary = `----candor${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? "file"}"; ` +
      `filename="${options.fileName ?? "proof.jpg"}"\r\nContent-Type: ${options.type ?? "image/jpeg"}\r\n\r\n`,
    "latin1",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, "latin1");
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}
