import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, ids, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

describe('snippet repository storage moves', () => {
  it('lists every move newest first, paginated, for administrators only', async () => {
    const all = await call(sim, '/snippet_repository_storage_moves?per_page=2', { token: admin });
    expect(ids(all)).toEqual([6, 5]);
    expect(all.headers.get('x-total')).toBe('6');
    expect(all.headers.get('x-next-page')).toBe('2');
    expect(list(all)[0]).toEqual({
      id: 6,
      created_at: '2025-05-27T12:00:00.000Z',
      state: 'cleanup failed',
      source_storage_name: 'storage2',
      destination_storage_name: 'default',
      snippet: {
        id: 3,
        title: 'Rake task to clean caches',
        description: 'Rake task to clean caches: demo snippet 3.',
        visibility: 'public',
        updated_at: expect.any(String) as unknown,
        created_at: expect.any(String) as unknown,
        project_id: 1,
        web_url: `${sim.origin}/gitlab-org/gitlab/-/snippets/3`,
        raw_url: `${sim.origin}/gitlab-org/gitlab/-/snippets/3/raw`,
        ssh_url_to_repo: 'ssh://git@127.0.0.1/gitlab-org/gitlab/snippets/3.git',
        http_url_to_repo: `${sim.origin}/gitlab-org/gitlab/snippets/3.git`,
      },
    });
    expect((await call(sim, '/snippet_repository_storage_moves', { token: maintainer })).status).toBe(403);
    expect((await call(sim, '/snippet_repository_storage_moves')).status).toBe(401);
  });

  it("reads a snippet's moves and one move both ways", async () => {
    expect(ids(await call(sim, '/snippets/1/repository_storage_moves', { token: admin }))).toEqual([1]);
    const direct = record(await call(sim, '/snippet_repository_storage_moves/1', { token: admin }));
    expect(record(await call(sim, '/snippets/1/repository_storage_moves/1', { token: admin }))).toEqual(direct);
    expect(direct['snippet']).toMatchObject({ id: 1, project_id: null, web_url: `${sim.origin}/-/snippets/1` });
    // The move exists, but not for that snippet; unknown ids and snippets are 404s.
    expect(record(await call(sim, '/snippets/2/repository_storage_moves/1', { token: admin }))).toEqual({ message: '404 Not found' });
    expect(record(await call(sim, '/snippet_repository_storage_moves/999', { token: admin }))).toEqual({ message: '404 Not found' });
    expect(record(await call(sim, '/snippets/999/repository_storage_moves', { token: admin }))).toEqual({
      message: '404 Snippet Not Found',
    });
  });

  it('schedules a move that goes on from scheduled to finished, with the snippet read-only meanwhile', async () => {
    sim.state.storageMoveStepMs = 60_000;
    const scheduled = await call(sim, '/snippets/7/repository_storage_moves', {
      method: 'POST',
      token: admin,
      json: { destination_storage_name: 'storage2' },
    });
    expect(scheduled.status).toBe(201);
    const move = record(scheduled);
    expect(move).toMatchObject({
      state: 'scheduled',
      source_storage_name: 'default',
      destination_storage_name: 'storage2',
      snippet: { id: 7 },
    });
    const again = await call(sim, '/snippets/7/repository_storage_moves', {
      method: 'POST',
      token: admin,
      json: { destination_storage_name: 'storage2' },
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: { snippet: ['is read-only'] } });

    sim.state.storageMoveStepMs = 0;
    expect(record(await call(sim, `/snippet_repository_storage_moves/${String(move['id'])}`, { token: admin }))['state']).toBe('finished');
    expect(sim.state.snippets.get(7)?.repositoryStorage).toBe('storage2');
  });

  it('picks the destination by weight when none is given, refuses unknown storages, and fails on an unweighted one', async () => {
    sim.state.storageMoveStepMs = 0;
    const byWeight = record(await call(sim, '/snippets/4/repository_storage_moves', { method: 'POST', token: admin, json: {} }));
    expect(byWeight).toMatchObject({ source_storage_name: 'storage2', destination_storage_name: 'default' });
    const unknown = await call(sim, '/snippets/5/repository_storage_moves', {
      method: 'POST',
      token: admin,
      json: { destination_storage_name: 'nowhere' },
    });
    expect(unknown.body).toEqual({ message: { destination_storage_name: ['is not included in the list'] } });
    const doomed = record(
      await call(sim, '/snippets/5/repository_storage_moves', {
        method: 'POST',
        token: admin,
        json: { destination_storage_name: 'storage3' },
      }),
    );
    expect(record(await call(sim, `/snippet_repository_storage_moves/${String(doomed['id'])}`, { token: admin }))['state']).toBe('failed');
    expect(sim.state.snippets.get(5)?.repositoryStorage).toBe('default');
  });

  it('schedules every move off a storage with 202 and a message body', async () => {
    sim.state.storageMoveStepMs = 60_000;
    const before = sim.state.snippetStorageMoves.size;
    const onStorage2 = [...sim.state.snippets.values()].filter((snippet) => snippet.repositoryStorage === 'storage2').length;
    const accepted = await call(sim, '/snippet_repository_storage_moves', {
      method: 'POST',
      token: admin,
      json: { source_storage_name: 'storage2' },
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ message: '202 Accepted' });
    expect(sim.state.snippetStorageMoves.size).toBe(before + onStorage2);
    expect(
      record(
        await call(sim, '/snippet_repository_storage_moves', { method: 'POST', token: admin, json: { source_storage_name: 'nowhere' } }),
      ),
    ).toEqual({
      error: 'source_storage_name does not have a valid value',
    });
    expect(record(await call(sim, '/snippet_repository_storage_moves', { method: 'POST', token: admin, json: {} }))).toEqual({
      error: 'source_storage_name is missing',
    });
  });
});
