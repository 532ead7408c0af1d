import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestMove {
  id: number;
  created_at: string;
  state: string;
  source_storage_name: string;
  destination_storage_name: string;
  snippet: { id: number; title: string; project_id: number | null; web_url: string };
}
interface MoveNode {
  id: string;
  createdAt: string;
  state: string;
  sourceStorageName: string;
  destinationStorageName: string;
  snippet: { id: string; title: string; webUrl: string };
}

const { admin, maintainer } = DEMO_TOKENS;
const MOVE_FIELDS = 'id createdAt state sourceStorageName destinationStorageName snippet { id title webUrl }';
const snippetGid = (snippet: RestMove['snippet']) =>
  `gid://gitlab/${snippet.project_id ? 'ProjectSnippet' : 'PersonalSnippet'}/${snippet.id}`;

function asNode(move: RestMove): MoveNode {
  return {
    id: `gid://gitlab/Snippets::RepositoryStorageMove/${move.id}`,
    createdAt: move.created_at,
    state: move.state.toUpperCase().replace(' ', '_'),
    sourceStorageName: move.source_storage_name,
    destinationStorageName: move.destination_storage_name,
    snippet: { id: snippetGid(move.snippet), title: move.snippet.title, webUrl: move.snippet.web_url },
  };
}

describe('snippet repository storage moves over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const query = <T>(text: string, variables: Record<string, unknown> = {}, token: string = admin) =>
    harness.gateway.query<T>(text, variables, token);

  it('lists every move, newest first, as a paged connection', async () => {
    const result = await query<{ snippetRepositoryStorageMoves: { count: number; nodes: MoveNode[]; pageInfo: { hasNextPage: boolean } } }>(
      `{ snippetRepositoryStorageMoves(first: 3) { count nodes { ${MOVE_FIELDS} } pageInfo { hasNextPage } } }`,
    );
    expect(result.errors).toBeUndefined();
    const all = await harness.oracle.all<RestMove>('/snippet_repository_storage_moves', admin);
    expect(result.data!.snippetRepositoryStorageMoves).toEqual({
      count: all.length,
      nodes: all.slice(0, 3).map(asNode),
      pageInfo: { hasNextPage: true },
    });
    expect(restCalls(harness.simulator)).toEqual(['GET /snippet_repository_storage_moves']);
  });

  it("lists one snippet's moves, and links each move to its snippet and the snippet to its project", async () => {
    const result = await query<{
      snippetRepositoryStorageMoves: { nodes: Array<MoveNode & { snippet: { project: { fullPath: string } | null } }> };
    }>(
      `{ snippetRepositoryStorageMoves(snippetId: "gid://gitlab/ProjectSnippet/3") { nodes { ${MOVE_FIELDS} snippet { project { fullPath } } } } }`,
    );
    const moves = await harness.oracle.all<RestMove>('/snippets/3/repository_storage_moves', admin);
    expect(result.data!.snippetRepositoryStorageMoves.nodes).toEqual(
      moves.map((move) => ({ ...asNode(move), snippet: { ...asNode(move).snippet, project: { fullPath: 'gitlab-org/gitlab' } } })),
    );
    expect(result.data!.snippetRepositoryStorageMoves.nodes[0]!.state).toBe('CLEANUP_FAILED');
    expect(restCalls(harness.simulator)).toEqual(['GET /snippets/3/repository_storage_moves', 'GET /projects/1']);
  });

  it('reads one move by ID both ways, and through node(id:)', async () => {
    const result = await query<{ direct: MoveNode; scoped: MoveNode; wrongSnippet: null; node: { id: string; state: string } }>(
      `{ direct: snippetRepositoryStorageMove(id: "gid://gitlab/Snippets::RepositoryStorageMove/1") { ${MOVE_FIELDS} }
         scoped: snippetRepositoryStorageMove(id: "gid://gitlab/Snippets::RepositoryStorageMove/1", snippetId: "gid://gitlab/PersonalSnippet/1") { ${MOVE_FIELDS} }
         wrongSnippet: snippetRepositoryStorageMove(id: "gid://gitlab/Snippets::RepositoryStorageMove/1", snippetId: "gid://gitlab/PersonalSnippet/2") { id }
         node(id: "gid://gitlab/Snippets::RepositoryStorageMove/2") { id ... on SnippetRepositoryStorageMove { state } } }`,
    );
    expect(result.errors).toBeUndefined();
    const expected = asNode(await harness.oracle.get<RestMove>('/snippet_repository_storage_moves/1', admin));
    expect(result.data).toEqual({
      direct: expected,
      scoped: expected,
      wrongSnippet: null,
      node: { id: 'gid://gitlab/Snippets::RepositoryStorageMove/2', state: 'FINISHED' },
    });
    expect(restCalls(harness.simulator).sort()).toEqual([
      'GET /snippet_repository_storage_moves/1',
      'GET /snippet_repository_storage_moves/2',
      'GET /snippets/1/repository_storage_moves/1',
      'GET /snippets/2/repository_storage_moves/1',
    ]);
  });

  it('refuses IDs of the wrong class before any REST call, and is FORBIDDEN to non-administrators', async () => {
    const wrong = await query(`{ snippetRepositoryStorageMoves(snippetId: "gid://gitlab/Project/1") { count } }`);
    expect(wrong.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'snippetId' });
    const wrongMove = await query(
      `{ snippetRepositoryStorageMove(id: "gid://gitlab/Snippets::RepositoryStorageMove/../../keys/1") { id } }`,
    );
    expect(wrongMove.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'id' });
    expect(restCalls(harness.simulator)).toEqual([]);
    const forbidden = await query(`{ snippetRepositoryStorageMoves { count } }`, {}, maintainer);
    expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
  });

  it('schedules a move that goes from scheduled onward, and reports refusals in `errors`', async () => {
    harness.simulator.state.storageMoveStepMs = 60_000;
    const CREATE = `mutation($input: SnippetRepositoryStorageMoveCreateInput!) { snippetRepositoryStorageMoveCreate(input: $input) { clientMutationId errors snippetRepositoryStorageMove { ${MOVE_FIELDS} } } }`;
    const created = await query<{
      snippetRepositoryStorageMoveCreate: { clientMutationId: string; errors: string[]; snippetRepositoryStorageMove: MoveNode };
    }>(CREATE, {
      input: { clientMutationId: 'm1', snippetId: 'gid://gitlab/PersonalSnippet/2', destinationStorageName: 'storage2' },
    });
    const move = created.data!.snippetRepositoryStorageMoveCreate.snippetRepositoryStorageMove;
    expect(created.data!.snippetRepositoryStorageMoveCreate).toMatchObject({ clientMutationId: 'm1', errors: [] });
    expect(move).toMatchObject({
      state: 'SCHEDULED',
      sourceStorageName: 'default',
      destinationStorageName: 'storage2',
      snippet: { id: 'gid://gitlab/PersonalSnippet/2' },
    });
    expect(restCalls(harness.simulator)).toEqual(['POST /snippets/2/repository_storage_moves']);

    const busy = await query<{ snippetRepositoryStorageMoveCreate: { errors: string[]; snippetRepositoryStorageMove: null } }>(CREATE, {
      input: { snippetId: 'gid://gitlab/PersonalSnippet/2' },
    });
    expect(busy.data!.snippetRepositoryStorageMoveCreate).toEqual({
      clientMutationId: null,
      errors: ['Snippet is read-only'],
      snippetRepositoryStorageMove: null,
    });
    const unknown = await query<{ snippetRepositoryStorageMoveCreate: { errors: string[] } }>(CREATE, {
      input: { snippetId: 'gid://gitlab/ProjectSnippet/8', destinationStorageName: 'nowhere' },
    });
    expect(unknown.data!.snippetRepositoryStorageMoveCreate.errors).toEqual(['Destination storage name is not included in the list']);

    harness.simulator.state.storageMoveStepMs = 0;
    const later = await query<{ snippetRepositoryStorageMove: { state: string } }>(
      `query($id: ID!) { snippetRepositoryStorageMove(id: $id) { state } }`,
      { id: move.id },
    );
    expect(later.data!.snippetRepositoryStorageMove.state).toBe('FINISHED');
  });

  it("schedules every move off a storage: REST's 202 becomes a payload with its message", async () => {
    harness.simulator.state.storageMoveStepMs = 60_000;
    const before = (await harness.oracle.all<RestMove>('/snippet_repository_storage_moves', admin)).length;
    const result = await query<{
      snippetRepositoryStorageMoveScheduleAll: { clientMutationId: string; errors: string[]; message: string };
    }>(
      `mutation { snippetRepositoryStorageMoveScheduleAll(input: { clientMutationId: "all", sourceStorageName: "default", destinationStorageName: "storage2" }) { clientMutationId errors message } }`,
    );
    expect(result.data!.snippetRepositoryStorageMoveScheduleAll).toEqual({ clientMutationId: 'all', errors: [], message: '202 Accepted' });
    expect(restCalls(harness.simulator)).toEqual(['POST /snippet_repository_storage_moves']);
    const after = await harness.oracle.all<RestMove>('/snippet_repository_storage_moves', admin);
    expect(after.length).toBeGreaterThan(before);
    expect(
      after.slice(0, after.length - before).every((move) => move.state === 'scheduled' && move.source_storage_name === 'default'),
    ).toBe(true);

    const blank = await query(`mutation { snippetRepositoryStorageMoveScheduleAll(input: { sourceStorageName: "" }) { message } }`);
    expect(blank.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'sourceStorageName' });
    const unknown = await query(
      `mutation { snippetRepositoryStorageMoveScheduleAll(input: { sourceStorageName: "nowhere" }) { message } }`,
    );
    expect(unknown.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      restStatus: 400,
      restError: 'source_storage_name does not have a valid value',
    });
  });
});
