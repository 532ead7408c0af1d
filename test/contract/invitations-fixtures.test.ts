import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startTestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream, type StubRoute } from '../support/stub-upstream.js';

/**
 * Every invitations fixture of the REST documentation, served by a stub upstream, maps through the
 * schema without error, for groups and for projects alike.
 */
const fixture = (name: string) => readFixture(`invitations/${name}.json`);

const GROUP = { id: 1, full_path: 'group', name: 'group', path: 'group' };
const PROJECT = { id: 2, path_with_namespace: 'group/project', name: 'project', path: 'project' };
const INVITATION_FIELDS = 'id inviteEmail createdAt accessLevel expiresAt userName createdByName';
const CREATE = `mutation($input: InvitationCreateInput!) { invitationCreate(input: $input) { errors invited failed { email reason } queued { email reason } } }`;

interface FixtureCase {
  routes: StubRoute[];
  query: string;
  variables?: Record<string, unknown>;
  expected: unknown;
}

const LISTED = {
  id: 'gid://gitlab/GroupMember/1',
  inviteEmail: 'member@example.org',
  createdAt: '2020-10-22T14:13:35Z',
  accessLevel: 'DEVELOPER',
  expiresAt: '2020-11-22T14:13:35Z',
  userName: 'Raymond Smith',
  createdByName: 'Administrator',
};

const CASES: Record<string, FixtureCase> = {
  'list-pending-invitations.json': {
    routes: [
      { method: 'GET', path: '/groups/group', body: GROUP },
      { method: 'GET', path: '/groups/group/invitations', body: fixture('list-pending-invitations') },
      { method: 'GET', path: '/projects/group%2Fproject', body: PROJECT },
      { method: 'GET', path: '/projects/group%2Fproject/invitations', body: fixture('list-pending-invitations') },
    ],
    query: `{ group(fullPath: "group") { invitations { count nodes { ${INVITATION_FIELDS} } } }
              project(fullPath: "group/project") { invitations { count nodes { ${INVITATION_FIELDS} } } } }`,
    expected: {
      group: { invitations: { count: 1, nodes: [LISTED] } },
      project: { invitations: { count: 1, nodes: [{ ...LISTED, id: 'gid://gitlab/ProjectMember/1' }] } },
    },
  },
  'create-invitation-success.json': {
    routes: [{ method: 'POST', path: '/groups/group/invitations', status: 201, body: fixture('create-invitation-success') }],
    query: CREATE,
    variables: { input: { groupPath: 'group', emails: ['test@example.com', 'test2@example.com'], accessLevel: 'DEVELOPER' } },
    expected: { invitationCreate: { errors: [], invited: ['test@example.com', 'test2@example.com'], failed: [], queued: [] } },
  },
  'create-invitation-error.json': {
    // The refused addresses are data; the one REST does not name went through.
    routes: [{ method: 'POST', path: '/projects/group%2Fproject/invitations', status: 201, body: fixture('create-invitation-error') }],
    query: CREATE,
    variables: { input: { projectPath: 'group/project', emails: ['test@example.com', 'test2@example.com', 'new@example.com'], accessLevel: 'DEVELOPER' } },
    expected: {
      invitationCreate: {
        errors: [],
        invited: ['new@example.com'],
        failed: [
          { email: 'test@example.com', reason: 'Invite email has already been taken' },
          { email: 'test2@example.com', reason: 'User already exists in source' },
          { email: 'test_username', reason: 'Access level is not included in the list' },
        ],
        queued: [],
      },
    },
  },
  'create-invitation-queued-for-approval.json': {
    routes: [{ method: 'POST', path: '/groups/group/invitations', status: 201, body: fixture('create-invitation-queued-for-approval') }],
    query: CREATE,
    variables: { input: { groupPath: 'group', emails: ['test@example.com'], accessLevel: 'MAINTAINER', expiresAt: '2030-01-01' } },
    expected: { invitationCreate: { errors: [], invited: ['test@example.com'], failed: [], queued: [{ email: 'username_1', reason: 'Request queued for administrator approval.' }] } },
  },
  'update-invitation.json': {
    // The documented answer has only expires_at and access_level: the address is the one asked about.
    routes: [{ method: 'PUT', path: '/groups/group/invitations/member%40example%2Eorg', body: fixture('update-invitation') }],
    query: `mutation { invitationUpdate(input: { groupPath: "group", email: "member@example.org", accessLevel: MAINTAINER }) { errors invitation { ${INVITATION_FIELDS} } } }`,
    expected: {
      invitationUpdate: {
        errors: [],
        invitation: { id: null, inviteEmail: 'member@example.org', createdAt: null, accessLevel: 'MAINTAINER', expiresAt: '2012-10-22T14:13:35Z', userName: null, createdByName: null },
      },
    },
  },
};

describe('invitations fixtures from the REST documentation', () => {
  it('covers every file of fixtures/gitlab-docs/invitations/', () => {
    const files = readdirSync(new URL('invitations/', FIXTURES_DIR)).filter((name) => name.endsWith('.json'));
    expect(Object.keys(CASES).sort()).toEqual(files.sort());
  });

  it.each(Object.entries(CASES))('%s maps through the schema', async (_name, { routes, query, variables, expected }) => {
    const stub = await startStubUpstream(routes);
    const gateway = await startTestGateway(stub.url);
    try {
      const result = await gateway.query(query, variables ?? {}, 'glpat-contract');
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual(expected);
      expect(stub.requests.every((request) => routes.some((route) => route.method === request.method && route.path === request.path))).toBe(true);
    } finally {
      await gateway.close();
      await stub.close();
    }
  });
});
