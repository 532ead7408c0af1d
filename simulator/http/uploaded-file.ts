/** A file part of a multipart/form-data request (`file` of metric images, wiki attachments). */
export class UploadedFile {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly bytes: Buffer,
  ) {}

  get size(): number {
    return this.bytes.length;
  }
}
