import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectAccessLevel } from '../../simulator/data/access.js';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const emails = (items: Record<string, unknown>[]) => items.map((item) => item['invite_email']);

describe('GET /groups/:id/invitations and /projects/:id/invitations', () => {
  it('lists a source\'s own pending invitations to those who manage its members', async () => {
    const group = await call(sim, '/groups/gitlab-org/invitations', { token: admin });
    expect(group.status).toBe(200);
    expect(emails(list(group))).toEqual(['new.hire@example.com', 'contractor@example.org']);
    expect(list(group)[0]).toEqual({
      id: 5001,
      invite_email: 'new.hire@example.com',
      created_at: '2025-05-10T14:13:35.000Z',
      access_level: 30,
      expires_at: null,
      user_name: null,
      created_by_name: 'Administrator',
    });
    // Not inherited: gitlab-org's invitations are not those of its projects, and the other way round.
    expect(emails(list(await call(sim, '/projects/gitlab-org%2Fgitlab/invitations', { token: maintainer })))).toEqual(['reviewer@example.net']);
    expect(emails(list(await call(sim, '/groups/gitlab-org%2Ffrontend/invitations', { token: admin })))).toEqual([]);
  });

  it('matches `query` against whole addresses only', async () => {
    expect(emails(list(await call(sim, '/groups/1/invitations?query=NEW.HIRE@example.com', { token: admin })))).toEqual(['new.hire@example.com']);
    expect(list(await call(sim, '/groups/1/invitations?query=new.hire', { token: admin }))).toEqual([]);
  });

  it('answers 401, 403 and 404 as GitLab does', async () => {
    expect((await call(sim, '/groups/1/invitations')).status).toBe(401);
    // A Maintainer of a group does not manage its members; of a project, they do.
    expect((await call(sim, '/groups/1/invitations', { token: maintainer })).status).toBe(403);
    expect((await call(sim, '/projects/6/invitations', { token: developer })).status).toBe(200);
    expect((await call(sim, '/groups/acme/invitations', { token: outsider })).body).toEqual({ message: '404 Group Not Found' });
  });
});

describe('POST .../invitations', () => {
  it('invites each address on its own: refused ones get a reason, the others go through', async () => {
    const result = await call(sim, '/projects/6/invitations', {
      method: 'POST',
      token: developer,
      json: { email: 'fresh@example.com,designer@example.com,developer@example.com,carol@example.com', access_level: 30 },
    });
    expect(result.status).toBe(201);
    expect(result.body).toEqual({
      status: 'error',
      message: { 'designer@example.com': 'Invite email has already been taken', 'developer@example.com': 'User already exists in source' },
    });
    expect(emails(list(await call(sim, '/projects/6/invitations', { token: developer })))).toContain('fresh@example.com');
    // An address of an existing user makes them a member at once.
    const carol = sim.state.users.get(8)!;
    expect(projectAccessLevel(sim.state, carol, sim.state.projects.get(6)!)).toBe(30);
  });

  it('answers success when every address went through', async () => {
    const result = await call(sim, '/groups/9/invitations', { method: 'POST', token: maintainer, form: 'email=a%40example.com&access_level=20&expires_at=2026-01-31' });
    expect(result.body).toEqual({ status: 'success' });
    const invitation = list(await call(sim, '/groups/9/invitations?query=a@example.com', { token: maintainer }))[0];
    expect(invitation).toMatchObject({ access_level: 20, expires_at: '2026-01-31T00:00:00Z', created_by_name: 'Maria Maintainer' });
  });

  it('refuses Owner in a project and a past expiry per address', async () => {
    const owner = await call(sim, '/projects/1/invitations', { method: 'POST', token: admin, json: { email: 'boss@example.com', access_level: 50 } });
    expect(owner.body).toEqual({ status: 'error', message: { 'boss@example.com': 'Access level is not included in the list' } });
    const past = await call(sim, '/projects/1/invitations', { method: 'POST', token: admin, json: { email: 'late@example.com', access_level: 30, expires_at: '2020-01-01' } });
    expect(past.body).toEqual({ status: 'error', message: { 'late@example.com': 'Expires at cannot be a date in the past' } });
  });

  it('refuses malformed requests before looking at addresses', async () => {
    expect((await call(sim, '/groups/9/invitations', { method: 'POST', token: maintainer, json: { email: 'not-an-address', access_level: 30 } })).body).toEqual({
      error: 'email contains an invalid email address',
    });
    expect((await call(sim, '/groups/9/invitations', { method: 'POST', token: maintainer, json: { email: 'x@example.com', access_level: 35 } })).body).toEqual({
      error: 'access_level does not have a valid value',
    });
    expect((await call(sim, '/groups/9/invitations', { method: 'POST', token: maintainer, json: { access_level: 30 } })).body).toEqual({ error: 'email is missing' });
    const many = Array.from({ length: 101 }, (_, index) => `user${index}@example.com`).join(',');
    expect((await call(sim, '/groups/9/invitations', { method: 'POST', token: maintainer, json: { email: many, access_level: 30 } })).body).toEqual({
      status: 'error',
      message: 'Too many users specified (limit is 100)',
    });
  });
});

describe('PUT and DELETE .../invitations/:email', () => {
  it('updates the role and the expiry, and answers the invitation', async () => {
    const result = await call(sim, '/groups/1/invitations/contractor%40example%2Eorg', { method: 'PUT', token: admin, json: { access_level: 40, expires_at: '2026-03-01T12:00:00Z' } });
    expect(result.status).toBe(200);
    expect(record(result)).toMatchObject({ invite_email: 'contractor@example.org', access_level: 40, expires_at: '2026-03-01T12:00:00Z' });
  });

  it('answers 400 without changes, model errors for a bad role or a past expiry, and 404 for an unknown address', async () => {
    const path = '/groups/1/invitations/new.hire@example.com';
    expect((await call(sim, path, { method: 'PUT', token: admin, json: {} })).body).toEqual({ message: '400 Bad request' });
    expect((await call(sim, '/projects/1/invitations/reviewer@example.net', { method: 'PUT', token: admin, json: { access_level: 50 } })).body).toEqual({
      message: { access_level: ['is not included in the list'] },
    });
    expect((await call(sim, path, { method: 'PUT', token: admin, json: { expires_at: '2021-01-01T00:00:00Z' } })).body).toEqual({
      message: { expires_at: ['cannot be a date in the past'] },
    });
    expect((await call(sim, '/groups/1/invitations/nobody@example.com', { method: 'PUT', token: admin, json: { access_level: 20 } })).status).toBe(404);
  });

  it('deletes with 204, then answers 404; 403 to those who may not manage members', async () => {
    expect((await call(sim, '/groups/6/invitations/auditor@acme.example', { method: 'DELETE', token: developer })).status).toBe(403);
    const deleted = await call(sim, '/groups/6/invitations/auditor@acme.example', { method: 'DELETE', token: admin });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await call(sim, '/groups/6/invitations/auditor@acme.example', { method: 'DELETE', token: admin })).body).toEqual({ message: '404 Not Found' });
  });
});
