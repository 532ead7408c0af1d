// Threads on a merge request, as GitLab's REST "Discussions" API answers them for merge requests:
// the paginated list, one thread, a new (resolvable) thread, a reply, and resolving or unresolving
// a thread (the merge request's author and Developers and above; 403 otherwise; 404s as GitLab's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { developer, guest, outsider } = DEMO_TOKENS;
/** gitlab-org/gitaly's first merge request, in a public project. */
const BASE = '/projects/3/merge_requests/1/discussions';

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

type RestNote = Record<string, unknown> & { author: { id: number }; resolved_by?: { id: number } | null };

async function newThread(body: string, token = developer): Promise<{ id: string; notes: RestNote[] }> {
  const result = await call(sim, BASE, { method: 'POST', token, json: { body } });
  expect(result.status).toBe(201);
  return record(result) as { id: string; notes: RestNote[] };
}

describe('merge request discussions', () => {
  it('starts a resolvable thread and lists it, paginated, with its notes', async () => {
    const thread = await newThread('Please rename this');
    expect(thread.id).toMatch(/^[0-9a-f]{40}$/);
    expect(record(await call(sim, `${BASE}/${thread.id}`))).toMatchObject({ id: thread.id, individual_note: false });
    expect(thread.notes[0]).toMatchObject({ type: 'DiscussionNote', body: 'Please rename this', noteable_type: 'MergeRequest', noteable_iid: 1, project_id: 3, resolvable: true, resolved: false, resolved_by: null, resolved_at: null });
    expect(thread.notes[0]!.author.id).toBe(USER_IDS.developer);
    await newThread('A second one');
    const page = await call(sim, `${BASE}?per_page=1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total')).toBe('2');
    expect(list(page).map((discussion) => discussion['id'])).toEqual([thread.id]);
  });

  it('replies in a thread; a reply to a resolved thread is resolved with it', async () => {
    const thread = await newThread('Needs a test');
    const reply = await call(sim, `${BASE}/${thread.id}/notes`, { method: 'POST', token: guest, json: { body: 'Added' } });
    expect(reply.status).toBe(201);
    expect(record(reply)).toMatchObject({ type: 'DiscussionNote', resolvable: true, resolved: false });
    const resolved = await call(sim, `${BASE}/${thread.id}?resolved=true`, { method: 'PUT', token: developer });
    expect(resolved.status).toBe(200);
    const late = record(await call(sim, `${BASE}/${thread.id}/notes`, { method: 'POST', token: guest, json: { body: 'Thanks' } })) as RestNote;
    expect(late).toMatchObject({ resolved: true });
    expect(late.resolved_by!.id).toBe(USER_IDS.guest);
    const shown = record(await call(sim, `${BASE}/${thread.id}`)) as { notes: RestNote[] };
    expect(shown.notes.map((note) => note.body)).toEqual(['Needs a test', 'Added', 'Thanks']);
    expect(shown.notes.every((note) => note.resolved === true)).toBe(true);
  });

  it('resolves and unresolves every resolvable note of a thread, for Developers', async () => {
    const thread = await newThread('Check the edge case');
    const resolved = record(await call(sim, `${BASE}/${thread.id}?resolved=true`, { method: 'PUT', token: developer })) as { notes: RestNote[] };
    expect(resolved.notes[0]).toMatchObject({ resolved: true, resolved_at: sim.state.now.toISOString() });
    expect(resolved.notes[0]!.resolved_by!.id).toBe(USER_IDS.developer);
    const reopened = record(await call(sim, `${BASE}/${thread.id}?resolved=false`, { method: 'PUT', token: developer })) as { notes: RestNote[] };
    expect(reopened.notes[0]).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null });
  });

  it('lets the merge request author resolve, and refuses Guests who are not its author', async () => {
    const thread = await newThread('Who may resolve this?');
    expect((await call(sim, `${BASE}/${thread.id}?resolved=true`, { method: 'PUT', token: guest })).status).toBe(403);
    const mergeRequest = [...sim.state.mergeRequests.values()].find((candidate) => candidate.projectId === 3 && candidate.iid === 1)!;
    const author = mergeRequest.authorId;
    mergeRequest.authorId = USER_IDS.outsider;
    try {
      expect((await call(sim, `${BASE}/${thread.id}?resolved=true`, { method: 'PUT', token: outsider })).status).toBe(200);
    } finally {
      mergeRequest.authorId = author;
    }
  });

  it('answers 404s and 400s as GitLab does', async () => {
    const thread = await newThread('Anything');
    expect(record(await call(sim, `${BASE}/${'0'.repeat(40)}`))).toEqual({ message: '404 Discussion Not Found' });
    expect((await call(sim, `${BASE}/${'0'.repeat(40)}?resolved=true`, { method: 'PUT', token: developer })).status).toBe(404);
    expect((await call(sim, '/projects/3/merge_requests/999/discussions')).status).toBe(404);
    expect((await call(sim, `${BASE}/${thread.id}`, { method: 'PUT', token: developer })).status).toBe(400);
    expect((await call(sim, BASE, { method: 'POST', token: developer, json: { body: ' ' } })).status).toBe(400);
    expect((await call(sim, BASE, { method: 'POST', json: { body: 'anonymous' } })).status).toBe(401);
  });
});
