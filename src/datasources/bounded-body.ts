/**
 * A body's chunks, gathered up to a limit of bytes: what the REST client holds of one JSON answer
 * (whole-answer.ts) and of a text file read from a download (readWithin, rest-client.ts). The one
 * place where the limit is counted, so both refuse alike: from an announced Content-Length before
 * any byte is read, or at the chunk that passes it, keeping nothing more.
 */
export class BoundedBody {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  /** Whether a Content-Length announces more than the limit (a repeated or absent one says nothing). */
  announcesTooMuch(contentLength: string | string[] | undefined): boolean {
    return typeof contentLength === 'string' && Number(contentLength) > this.limit;
  }

  /** Keeps a chunk; false, keeping nothing, once the body has passed the limit. */
  add(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.limit) return false;
    this.chunks.push(chunk);
    return true;
  }

  /** The bytes kept, as one buffer. */
  bytes(): Buffer {
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
  }
}
