import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream } from '../support/stub-upstream.js';

/**
 * Every snippet repository storage moves fixture of the REST documentation, served by a stub
 * upstream, maps through the schema without error, with its values where the schema says they go.
 */
const fixture = (name: string) => readFixture(`snippet_storage_moves/${name}.json`);
const MOVE_FIELDS = `id createdAt state sourceStorageName destinationStorageName
  snippet { id title description visibility updatedAt createdAt project { id } webUrl rawUrl sshUrlToRepo httpUrlToRepo }`;

/** The one move every fixture shows (id 1, snippet 65), as the schema presents it. */
const MOVE = {
  id: 'gid://gitlab/Snippets::RepositoryStorageMove/1',
  createdAt: '2020-05-07T04:27:17.234Z',
  state: 'SCHEDULED',
  sourceStorageName: 'default',
  destinationStorageName: 'storage2',
  snippet: {
    id: 'gid://gitlab/PersonalSnippet/65',
    title: 'Test Snippet',
    description: null,
    visibility: 'INTERNAL',
    updatedAt: '2020-12-01T11:15:50.385Z',
    createdAt: '2020-12-01T11:15:50.385Z',
    project: null,
    webUrl: 'https://gitlab.example.com/-/snippets/65',
    rawUrl: 'https://gitlab.example.com/-/snippets/65/raw',
    sshUrlToRepo: 'ssh://user@gitlab.example.com/snippets/65.git',
    httpUrlToRepo: 'https://gitlab.example.com/snippets/65.git',
  },
};

const CASES: Record<string, { query: string; expected: unknown }> = {
  'list-all-snippet-repository-storage-moves.json': {
    query: `{ snippetRepositoryStorageMoves { count nodes { ${MOVE_FIELDS} } } }`,
    expected: { snippetRepositoryStorageMoves: { count: 1, nodes: [MOVE] } },
  },
  'list-snippet-repository-storage-moves.json': {
    query: `{ snippetRepositoryStorageMoves(snippetId: "gid://gitlab/PersonalSnippet/65") { count nodes { ${MOVE_FIELDS} } } }`,
    expected: { snippetRepositoryStorageMoves: { count: 1, nodes: [MOVE] } },
  },
  'get-snippet-repository-storage-move.json': {
    query: `{ snippetRepositoryStorageMove(id: "gid://gitlab/Snippets::RepositoryStorageMove/1") { ${MOVE_FIELDS} } }`,
    expected: { snippetRepositoryStorageMove: MOVE },
  },
  'get-snippet-repository-storage-move-for-snippet.json': {
    query: `{ snippetRepositoryStorageMove(id: "gid://gitlab/Snippets::RepositoryStorageMove/1", snippetId: "gid://gitlab/PersonalSnippet/65") { ${MOVE_FIELDS} } }`,
    expected: { snippetRepositoryStorageMove: MOVE },
  },
  'schedule-snippet-repository-storage-move.json': {
    query: `mutation { snippetRepositoryStorageMoveCreate(input: { snippetId: "gid://gitlab/PersonalSnippet/65", destinationStorageName: "storage2" }) { errors snippetRepositoryStorageMove { ${MOVE_FIELDS} } } }`,
    expected: { snippetRepositoryStorageMoveCreate: { errors: [], snippetRepositoryStorageMove: MOVE } },
  },
  'schedule-all-snippet-repository-storage-moves.json': {
    query: `mutation { snippetRepositoryStorageMoveScheduleAll(input: { sourceStorageName: "default", destinationStorageName: "storage2" }) { errors message } }`,
    expected: { snippetRepositoryStorageMoveScheduleAll: { errors: [], message: '202 Accepted' } },
  },
};

describe('snippet repository storage moves fixtures from the REST documentation', () => {
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    stub = await startStubUpstream([
      { method: 'GET', path: '/snippet_repository_storage_moves', body: fixture('list-all-snippet-repository-storage-moves') },
      { method: 'GET', path: '/snippets/65/repository_storage_moves', body: fixture('list-snippet-repository-storage-moves') },
      { method: 'GET', path: '/snippet_repository_storage_moves/1', body: fixture('get-snippet-repository-storage-move') },
      { method: 'GET', path: '/snippets/65/repository_storage_moves/1', body: fixture('get-snippet-repository-storage-move-for-snippet') },
      {
        method: 'POST',
        path: '/snippets/65/repository_storage_moves',
        status: 201,
        body: fixture('schedule-snippet-repository-storage-move'),
      },
      {
        method: 'POST',
        path: '/snippet_repository_storage_moves',
        status: 202,
        body: fixture('schedule-all-snippet-repository-storage-moves'),
      },
    ]);
    gateway = await startTestGateway(stub.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('covers every file of fixtures/gitlab-docs/snippet_storage_moves/', () => {
    const files = readdirSync(new URL('snippet_storage_moves/', FIXTURES_DIR)).filter((name) => name.endsWith('.json'));
    expect(Object.keys(CASES).sort()).toEqual(files.sort());
  });

  it.each(Object.entries(CASES))('%s maps through the schema', async (_name, { query, expected }) => {
    const result = await gateway.query(query, {}, 'glpat-contract');
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual(expected);
  });
});
