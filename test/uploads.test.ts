import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kind } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMultipart } from '../simulator/http/multipart.js';
import { UploadedFile } from '../simulator/http/uploaded-file.js';
import { FileUpload } from '../src/datasources/file-upload.js';
import { RestClient, RestSession } from '../src/datasources/rest-client.js';
import { Upload } from '../src/resolvers/scalars.js';
import { readMultipartOperation } from '../src/transport/uploads.js';
import { startTestGateway, type TestGateway } from './support/gateway.js';
import { startStubUpstream } from './support/stub-upstream.js';
import { multipartForm } from './support/uploads.js';

const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3])], 'chart.png', { type: 'image/png' });

describe('uploads through the gateway (GraphQL multipart request spec)', () => {
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    stub = await startStubUpstream([]);
    gateway = await startTestGateway(stub.url, { maxUploadBytes: 1024 });
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  const send = (form: FormData, headers: Record<string, string> = { 'apollo-require-preflight': 'true' }) =>
    fetch(gateway.url, { method: 'POST', headers, body: form });

  it('needs a preflight header, as CSRF prevention asks', async () => {
    const form = multipartForm({ query: 'query($file: Upload!) { __typename }', variables: { file: null } }, { 0: ['variables.file'] }, { 0: png });
    const response = await send(form, {});
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('Apollo-Require-Preflight');
  });

  it.each([
    [{ query: '{ __typename }' }, { 0: ['operations.query'] }, 400, 'does not point into'],
    [[{ query: '{ __typename }' }], {}, 400, 'batches are not accepted'],
    [{ query: 'query($file: Upload!) { __typename }', variables: { file: null } }, { 0: ['variables.file'], 9: ['variables.file'] }, 400, 'does not carry'],
  ])('refuses a malformed multipart request (%j, map %j)', async (operation, map, status, message) => {
    const response = await send(multipartForm(operation, map, { 0: png }));
    expect(response.status).toBe(status);
    expect(JSON.stringify(await response.json())).toContain(message);
  });

  it('refuses a file over the upload limit with 413', async () => {
    const big = new File([new Uint8Array(2048)], 'big.bin');
    const response = await send(multipartForm({ query: 'query($file: Upload!) { __typename }', variables: { file: null } }, { 0: ['variables.file'] }, { 0: big }));
    expect(response.status).toBe(413);
  });
});

describe('readMultipartOperation', () => {
  it('places each file at every variable path its map names', async () => {
    const form = multipartForm(
      { query: 'mutation($file: Upload!, $files: [Upload!]!) { x }', variables: { file: null, files: [null, null] } },
      { 0: ['variables.file', 'variables.files.1'], 1: ['variables.files.0'] },
      { 0: png, 1: new File(['plain text'], 'notes.txt', { type: 'text/plain' }) },
    );
    const request = new Request('http://gateway.invalid', { method: 'POST', body: form });
    const operation = await readMultipartOperation(request.headers.get('content-type')!, Buffer.from(await request.arrayBuffer()), 1024);
    const variables = operation.variables as { file: FileUpload; files: FileUpload[] };
    expect(variables.file).toBeInstanceOf(FileUpload);
    expect(variables.file).toMatchObject({ filename: 'chart.png', mimeType: 'image/png', size: 8 });
    expect(variables.files[1]).toBe(variables.file);
    expect(new TextDecoder().decode(variables.files[0]!.bytes)).toBe('plain text');
  });
});

describe('the Upload scalar', () => {
  it('takes only a file the HTTP handler placed, never JSON or a literal', () => {
    const upload = new FileUpload('a.txt', 'text/plain', new Uint8Array([1]));
    expect(Upload.parseValue(upload)).toBe(upload);
    expect(() => Upload.parseValue('not a file')).toThrow(/multipart request/);
    expect(() => Upload.parseLiteral({ kind: Kind.STRING, value: 'x' })).toThrow(/not written in the query/);
  });
});

describe('RestSession.postMultipart', () => {
  it('sends text fields and file parts that the embedded server reads back byte for byte', async () => {
    let received: Record<string, unknown> = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        void parseMultipart(req.headers['content-type'] ?? '', Buffer.concat(chunks)).then((params) => {
          received = params;
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end('{"ok":true}');
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new RestClient({ baseUrl: `http://127.0.0.1:${port}/api/v4` });
    try {
      const bytes = new Uint8Array([0, 255, 1, 254, 10, 13]);
      const response = await new RestSession(client, null).postMultipart<{ ok: boolean }>('/projects/1/uploads', {
        file: new FileUpload('diagram.bin', 'application/octet-stream', bytes),
        url: 'https://example.com/chart',
        branch: undefined,
      });
      expect(response).toMatchObject({ status: 201, body: { ok: true } });
      expect(received['url']).toBe('https://example.com/chart');
      expect(received).not.toHaveProperty('branch');
      const file = received['file'];
      expect(file).toBeInstanceOf(UploadedFile);
      expect((file as UploadedFile).filename).toBe('diagram.bin');
      expect([...(file as UploadedFile).bytes]).toEqual([...bytes]);
    } finally {
      await client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
