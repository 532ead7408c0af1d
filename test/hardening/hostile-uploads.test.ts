// Hostile multipart uploads (issue 15, an adversarial suite): every part of a GraphQL multipart
// request is the caller's to forge. Each is answered with a 4xx or a GraphQL error with a code,
// never reaches REST when it is malformed, and never stalls another caller.
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { multipartForm } from '../support/uploads.js';
import {
  attackerCalls,
  codesOf,
  expectClearRefusal,
  expectNothingLeaked,
  readAnswer,
  sendAlone,
  withBystander,
} from './hostile-support.js';

const { developer } = DEMO_TOKENS;
const UPLOAD =
  'mutation($input: WikiAttachmentUploadInput!) { wikiAttachmentUpload(input: $input) { errors attachment { fileName filePath } } }';
const PROJECT = 'gitlab-org/gitlab';
const ATTACHMENTS_CALL = 'POST /projects/gitlab-org%2Fgitlab/wikis/attachments';
const MAX_UPLOAD_BYTES = 64 * 1024;

const textFile = (name = 'notes.txt', text = 'hello') => new File([text], name, { type: 'text/plain' });
/** The operation with its file variable left null, as the spec has clients send it. */
const operation = (input: Record<string, unknown> = { projectPath: PROJECT, file: null }) => ({ query: UPLOAD, variables: { input } });

describe('hostile multipart requests', () => {
  const harness = gatewayOverSimulator({ maxUploadBytes: MAX_UPLOAD_BYTES });
  const send = (body: FormData) =>
    fetch(harness.gateway.url, { method: 'POST', headers: { 'apollo-require-preflight': 'true', 'private-token': developer }, body }).then(
      readAnswer,
    );
  /** A form whose parts are appended in the order given: [name, value, filename?]. */
  const formOf = (parts: Array<[string, string | File]>) => {
    const form = new FormData();
    for (const [name, value] of parts) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, value, value.name);
    }
    return form;
  };

  // Fixed here: graphql-js wrote every byte of the file into its coercion error (24 MB of message
  // and 3.5 s of blocked event loop for a 1 MB file).
  it('refuses a file mapped to a text argument with a short BAD_USER_INPUT that names the file, never its bytes', async () => {
    const secret = 'SECRET-FILE-CONTENT-';
    const big = new File([secret.repeat(Math.floor((MAX_UPLOAD_BYTES - 1) / secret.length))], 'big.txt', { type: 'text/plain' });
    const answer = await withBystander(harness, () =>
      send(
        multipartForm(
          operation({ projectPath: null, file: null }),
          { 0: ['variables.input.projectPath', 'variables.input.file'] },
          { 0: big },
        ),
      ),
    );
    expectClearRefusal(answer, 'BAD_USER_INPUT');
    expect(answer.json?.errors?.[0]?.message).toContain('big.txt');
    expect(answer.text).not.toContain(secret);
    expect(answer.text.length).toBeLessThan(2_000);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('refuses a file mapped into a list of text arguments the same way', async () => {
    const query = 'query($labels: [String]) { issues(labelName: $labels) { nodes { id } } }';
    const answer = await send(
      multipartForm({ query, variables: { labels: ['bug', null] } }, { 0: ['variables.labels.1'] }, { 0: textFile('x.bin', 'BYTES') }),
    );
    expectClearRefusal(answer, 'BAD_USER_INPUT');
    expect(answer.text).not.toContain('BYTES');
    expect(attackerCalls(harness)).toEqual([]);
  });

  it.each<[string, () => FormData, number]>([
    [
      'a part that is text where the map names a file',
      () =>
        formOf([
          ['operations', JSON.stringify(operation())],
          ['map', '{"0":["variables.input.file"]}'],
          ['0', 'just text'],
        ]),
      400,
    ],
    [
      'a map naming a part that is not there',
      () => multipartForm(operation(), { 0: ['variables.input.file'], 7: ['variables.input.file'] }, { 0: textFile() }),
      400,
    ],
    ['no `operations` part', () => formOf([['map', '{}']]), 400],
    ['no `map` part', () => formOf([['operations', JSON.stringify(operation())]]), 400],
    [
      '`operations` that is not JSON',
      () =>
        formOf([
          ['operations', '{"query":'],
          ['map', '{}'],
        ]),
      400,
    ],
    [
      '`operations` as a batch',
      () =>
        formOf([
          ['operations', JSON.stringify([operation()])],
          ['map', '{}'],
        ]),
      400,
    ],
    [
      'a map that is an array',
      () =>
        formOf([
          ['operations', JSON.stringify(operation())],
          ['map', '[["variables.input.file"]]'],
        ]),
      400,
    ],
    ['a map entry that is a string, not a list', () => multipartForm(operation(), { 0: 'variables.input.file' }, { 0: textFile() }), 400],
    ['a map entry with a number for a path', () => multipartForm(operation(), { 0: [7] }, { 0: textFile() }), 400],
    ['a map path into the query text', () => multipartForm(operation(), { 0: ['query'] }, { 0: textFile() }), 400],
    ['a map path through __proto__', () => multipartForm(operation(), { 0: ['variables.__proto__.polluted'] }, { 0: textFile() }), 400],
    [
      'a map path through constructor.prototype',
      () => multipartForm(operation(), { 0: ['variables.constructor.prototype.polluted'] }, { 0: textFile() }),
      400,
    ],
    ['a map path below the file variable', () => multipartForm(operation(), { 0: ['variables.input.file.0.1'] }, { 0: textFile() }), 400],
    [
      'a map path into variables that are a string',
      () => multipartForm({ query: UPLOAD, variables: 'input' }, { 0: ['variables.input.file'] }, { 0: textFile() }),
      400,
    ],
    [
      'a map path through a variable that is a string',
      () => multipartForm(operation({ projectPath: PROJECT, file: 'x' }), { 0: ['variables.input.file.name'] }, { 0: textFile() }),
      400,
    ],
    [
      'a file over the upload limit',
      () => multipartForm(operation(), { 0: ['variables.input.file'] }, { 0: new File([new Uint8Array(MAX_UPLOAD_BYTES + 1)], 'big.bin') }),
      413,
    ],
  ])('refuses %s before any REST call', async (_case, form, status) => {
    const answer = await withBystander(harness, () =>
      sendAlone(harness.gateway.url, { headers: { 'apollo-require-preflight': 'true', 'private-token': developer }, body: form() }),
    );
    expect(answer.status).toBe(status);
    expect(codesOf(answer.json)).toEqual(['BAD_REQUEST']);
    expectNothingLeaked(harness, answer.text);
    expect(attackerCalls(harness)).toEqual([]);
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it('refuses a body that is not multipart at all, or has no boundary, with 400', async () => {
    for (const contentType of ['multipart/form-data; boundary=xyz', 'multipart/form-data']) {
      const response = await fetch(harness.gateway.url, {
        method: 'POST',
        headers: { 'content-type': contentType, 'apollo-require-preflight': 'true', 'private-token': developer },
        body: '--abc\r\nnot a part\r\n',
      });
      const answer = await readAnswer(response);
      expect(answer.status).toBe(400);
      expect(codesOf(answer.json)).toEqual(['BAD_REQUEST']);
    }
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('refuses a file variable with no file mapped, or a file sent as JSON, as BAD_USER_INPUT', async () => {
    const unmapped = await send(multipartForm(operation(), {}, {}));
    expectClearRefusal(unmapped, 'BAD_USER_INPUT');
    const asJson = await send(
      formOf([
        ['operations', JSON.stringify(operation({ projectPath: PROJECT, file: { filename: 'a.txt', bytes: [1, 2] } }))],
        ['map', '{}'],
      ]),
    );
    expectClearRefusal(asJson, 'BAD_USER_INPUT');
    expect(asJson.text).toMatch(/multipart request/);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('refuses parts that together exceed the body limit with 413, whatever each file weighs', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 20 }, (_, index) => [String(index), new File([new Uint8Array(60 * 1024)], `${index}.bin`)]),
    );
    const map = Object.fromEntries(Object.keys(files).map((field) => [field, ['variables.input.file']]));
    const answer = await withBystander(harness, () =>
      sendAlone(harness.gateway.url, {
        headers: { 'apollo-require-preflight': 'true', 'private-token': developer },
        body: multipartForm(operation(), map, files),
      }),
    );
    expect(answer.status).toBe(413);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('handles thousands of parts and map paths in one request within the body limit, with the one REST call the operation needs', async () => {
    const files = Object.fromEntries(Array.from({ length: 2_000 }, (_, index) => [String(index), textFile(`${index}.txt`, 'x')]));
    const map = {
      ...Object.fromEntries(Object.keys(files).map((field) => [field, ['variables.input.file']])),
      0: Array.from({ length: 5_000 }, () => 'variables.input.file'),
    };
    const answer = await withBystander(harness, () => send(multipartForm(operation(), map, files)));
    expect(answer.status).toBe(200);
    expect(answer.json?.errors).toBeUndefined();
    expect(attackerCalls(harness)).toEqual([ATTACHMENTS_CALL]);
  });

  it('reads the parts in any order: a file before its map and operations is the same request', async () => {
    const answer = await send(
      formOf([
        ['0', textFile()],
        ['map', '{"0":["variables.input.file"]}'],
        ['operations', JSON.stringify(operation())],
      ]),
    );
    expect(answer.json).toMatchObject({ data: { wikiAttachmentUpload: { errors: [], attachment: { fileName: 'notes.txt' } } } });
    expect(attackerCalls(harness)).toEqual([ATTACHMENTS_CALL]);
  });

  it('takes a map key named __proto__ as a part name, with Object.prototype left alone', async () => {
    const form = formOf([
      ['operations', JSON.stringify(operation())],
      ['map', '{"__proto__":["variables.input.file"]}'],
      ['__proto__', textFile()],
    ]);
    const answer = await send(form);
    expect(answer.json).toMatchObject({ data: { wikiAttachmentUpload: { errors: [] } } });
    expect(Object.prototype).not.toHaveProperty('0');
    expect(attackerCalls(harness)).toEqual([ATTACHMENTS_CALL]);
  });

  it.each([
    ['path traversal', '../../../etc/passwd'],
    ['a CR/LF that would start a new part header', 'a.txt"\r\nContent-Type: text/html\r\n\r\n<script>'],
    ['quotes and a NUL', 'a"b\u0000.txt'],
  ])('sends a file name with %s as one file name, never as a part header of its own', async (_case, name) => {
    const answer = await send(multipartForm(operation(), { 0: ['variables.input.file'] }, { 0: textFile(name, 'hello') }));
    expect(answer.status).toBe(200);
    expect(codesOf(answer.json)).not.toContain('INTERNAL_SERVER_ERROR');
    if (answer.json?.errors) {
      // Refused as the caller's: never sent.
      expect(codesOf(answer.json)).toEqual(['BAD_USER_INPUT']);
      expect(attackerCalls(harness)).toEqual([]);
      return;
    }
    expect(attackerCalls(harness)).toEqual([ATTACHMENTS_CALL]);
    const filePath = (answer.json?.data as { wikiAttachmentUpload: { attachment: { filePath: string } } }).wikiAttachmentUpload.attachment
      .filePath;
    const stored = harness.simulator.state.wikiAttachments.find((candidate) => candidate.filePath === filePath);
    // The part's own Content-Type and bytes: the name could not add headers or end the part.
    expect(stored?.contentType).toBe('text/plain');
    expect(Buffer.from(stored!.bytes).toString()).toBe('hello');
    expect(filePath).not.toMatch(/\.\.|[\r\n]/);
  });
});
