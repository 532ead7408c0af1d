/**
 * A file a client uploaded through the gateway, held in memory within the upload size limit, on
 * its way to a REST multipart endpoint (metric images, wiki attachments).
 */
export class FileUpload {
  constructor(
    readonly filename: string,
    readonly mimeType: string,
    readonly bytes: Uint8Array,
  ) {}

  get size(): number {
    return this.bytes.byteLength;
  }
}
