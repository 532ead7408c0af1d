import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readBounded } from '../../src/datasources/bounded-body.js';

// readBounded reads the gateway's request bodies, downloads' text files and, through
// exchangeByRequest, the answers an embedder's dispatcher gives. The HTTP tests hold it over real
// sockets (hostile-http, whole-answer, artifacts); these hold the stream states sockets rarely show.
describe('readBounded', () => {
  it('reads a stream someone paused, as `for await` did', async () => {
    const stream = new PassThrough();
    stream.pause();
    stream.end(Buffer.from('paused body'));
    expect((await readBounded(stream, 100))?.toString()).toBe('paused body');
  });

  it('keeps nothing past the limit and stops listening there', async () => {
    const stream = new PassThrough();
    const read = readBounded(stream, 8);
    stream.write(Buffer.from('12345'));
    stream.write(Buffer.from('67890'));
    expect(await read).toBeUndefined();
    expect(stream.listenerCount('data')).toBe(0);
  });

  it('refuses a body announced past the limit before reading any of it', async () => {
    const stream = new PassThrough();
    expect(await readBounded(stream, 8, '9')).toBeUndefined();
    expect(stream.listenerCount('data')).toBe(0);
  });

  it('fails a stream destroyed before its end', async () => {
    const stream = new PassThrough();
    const read = readBounded(stream, 100);
    stream.write(Buffer.from('half'));
    stream.destroy();
    await expect(read).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});
