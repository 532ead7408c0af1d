import type { Readable } from 'node:stream';

/**
 * A body's chunks, gathered up to a limit of bytes: what the REST client holds of one JSON answer
 * (whole-answer.ts) or of a text file read from a download (readWithin, rest-client.ts), and what
 * the gateway reads of a request's body (readBounded, below). The one place where the limit is
 * counted, so all refuse alike: from an announced Content-Length before any byte is read, or at
 * the chunk that passes it, keeping nothing more.
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

/**
 * Reads a stream whole, keeping at most `limit` bytes: resolves its bytes, or undefined when its
 * announced length (`contentLength`) or what arrives passes the limit. Then it stops listening and
 * reads no more; what is left of the stream is the caller's to drop or drain. Rejects with the
 * stream's error, or with ERR_STREAM_PREMATURE_CLOSE when it was destroyed before its end.
 *
 * By events rather than `for await`, whose async iterator costs an end-of-stream watcher and a
 * promise per chunk: this runs for every operation the gateway receives and every file it reads.
 */
export function readBounded(body: Readable, limit: number, contentLength?: string | string[]): Promise<Buffer | undefined> {
  const kept = new BoundedBody(limit);
  if (kept.announcesTooMuch(contentLength)) return Promise.resolve(undefined);
  if (body.destroyed) return Promise.reject(body.errored ?? prematureClose());
  if (body.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      if (kept.add(chunk)) return;
      settle();
      resolve(undefined);
    };
    const onEnd = (): void => {
      settle();
      resolve(kept.bytes());
    };
    const onError = (error: Error): void => {
      settle();
      reject(error);
    };
    // Destroyed before its end without an error (what `for await` reports as a premature close).
    const onClose = (): void => {
      settle();
      reject(prematureClose());
    };
    body.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    // A 'data' listener starts a stream flowing unless someone paused it; `for await` read a paused
    // one too, so this does as well, rather than wait for an end that never comes.
    body.resume();
  });
}

function prematureClose(): Error {
  return Object.assign(new Error('The body closed before its end.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
