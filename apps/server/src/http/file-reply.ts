/**
 * A route's answer that is a file to download (a CSV export) rather than the JSON envelope.
 * `defineRoute` sends it as it is, with its content type and as an attachment.
 */
export class FileReply {
  constructor(
    readonly contentType: string,
    readonly fileName: string,
    readonly body: string,
  ) {}
}
