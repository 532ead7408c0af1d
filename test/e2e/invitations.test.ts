import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

interface RestInvitation {
  id: number;
  invite_email: string;
  created_at: string;
  access_level: number;
  expires_at: string | null;
  user_name: string | null;
  created_by_name: string | null;
}
interface InvitationNode {
  id: string | null;
  inviteEmail: string;
  createdAt: string;
  accessLevel: string;
  expiresAt: string | null;
  userName: string | null;
  createdByName: string | null;
}
interface CreatePayload {
  errors: string[];
  invited: string[];
  failed: Array<{ email: string; reason: string }>;
  queued: Array<{ email: string; reason: string }>;
}

const { admin, maintainer, developer, guest } = DEMO_TOKENS;
const ROLE: Record<number, string> = { 10: 'GUEST', 20: 'REPORTER', 30: 'DEVELOPER', 40: 'MAINTAINER', 50: 'OWNER' };
const INVITATION_FIELDS = 'id inviteEmail createdAt accessLevel expiresAt userName createdByName';

function asNode(invitation: RestInvitation, member: 'GroupMember' | 'ProjectMember'): InvitationNode {
  return {
    id: `gid://gitlab/${member}/${invitation.id}`,
    inviteEmail: invitation.invite_email,
    createdAt: invitation.created_at,
    accessLevel: ROLE[invitation.access_level]!,
    expiresAt: invitation.expires_at,
    userName: invitation.user_name,
    createdByName: invitation.created_by_name,
  };
}

describe('invitations over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const query = <T>(text: string, variables: Record<string, unknown>, token?: string) => harness.gateway.query<T>(text, variables, token);

  describe('the invitations connection', () => {
    it('lists a group\'s and a project\'s own pending invitations, one REST call each', async () => {
      const result = await query<{ group: { invitations: { count: number; nodes: InvitationNode[] } }; project: { invitations: { count: number; nodes: InvitationNode[] } } }>(
        `{ group(fullPath: "gitlab-org") { invitations { count nodes { ${INVITATION_FIELDS} } } }
           project(fullPath: "gitlab-org/gitlab") { invitations { count nodes { ${INVITATION_FIELDS} } } } }`,
        {},
        admin,
      );
      expect(result.errors).toBeUndefined();
      // Each list is asked by the path its parent was looked up by, alongside the parent's record.
      expect(restCalls(harness.simulator).sort()).toEqual(['GET /groups/gitlab-org', 'GET /groups/gitlab-org/invitations', 'GET /projects/gitlab-org%2Fgitlab', 'GET /projects/gitlab-org%2Fgitlab/invitations']);
      const groupInvitations = await harness.oracle.all<RestInvitation>('/groups/1/invitations', admin);
      const projectInvitations = await harness.oracle.all<RestInvitation>('/projects/1/invitations', admin);
      expect(groupInvitations.length).toBeGreaterThan(1);
      expect(result.data!.group.invitations).toEqual({ count: groupInvitations.length, nodes: groupInvitations.map((i) => asNode(i, 'GroupMember')) });
      expect(result.data!.project.invitations).toEqual({ count: projectInvitations.length, nodes: projectInvitations.map((i) => asNode(i, 'ProjectMember')) });
    });

    it('filters by the exact address, and pages', async () => {
      const [first] = await harness.oracle.all<RestInvitation>('/groups/1/invitations', admin);
      const result = await query<{ group: { exact: { nodes: Array<{ inviteEmail: string }> }; partial: { nodes: unknown[] }; page: { nodes: unknown[]; pageInfo: { hasNextPage: boolean } } } }>(
        `query($email: String!, $part: String!) { group(fullPath: "gitlab-org") {
           exact: invitations(query: $email) { nodes { inviteEmail } }
           partial: invitations(query: $part) { nodes { inviteEmail } }
           page: invitations(first: 1) { nodes { inviteEmail } pageInfo { hasNextPage } } } }`,
        { email: first!.invite_email.toUpperCase(), part: first!.invite_email.split('@')[0] },
        admin,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.group.exact.nodes).toEqual([{ inviteEmail: first!.invite_email }]);
      expect(result.data!.group.partial.nodes).toEqual([]);
      expect(result.data!.group.page).toEqual({ nodes: [{ inviteEmail: first!.invite_email }], pageInfo: { hasNextPage: true } });
    });

    it('fails the field with FORBIDDEN for a caller who may not manage the group\'s members, keeping the rest', async () => {
      const result = await query<{ group: { name: string; invitations: unknown } | null; project: { invitations: { nodes: unknown[] } } }>(
        `{ group(fullPath: "gitlab-org") { name invitations { nodes { inviteEmail } } } project(fullPath: "gitlab-org/frontend/web-ui") { invitations { nodes { inviteEmail } } } }`,
        {},
        developer,
      );
      // Only Owners manage a group's members; the developer maintains web-ui, so its invitations show.
      expect(result.errors).toHaveLength(1);
      expect(result.errors![0]).toMatchObject({ path: ['group', 'invitations'], extensions: { code: 'FORBIDDEN', restStatus: 403 } });
      expect(result.data!.project.invitations.nodes.length).toBeGreaterThan(0);
    });
  });

  describe('invitationCreate', () => {
    it('invites a mix of new, already invited and member addresses: refusals are data, the rest go through', async () => {
      const [alreadyInvited] = await harness.oracle.all<RestInvitation>('/projects/6/invitations', developer);
      const member = 'developer@example.com';
      const newcomer = 'newcomer@example.com';
      const existingUser = 'erin@example.com';
      const result = await query<{ invitationCreate: CreatePayload & { clientMutationId: string } }>(
        `mutation($input: InvitationCreateInput!) { invitationCreate(input: $input) { clientMutationId errors invited failed { email reason } queued { email reason } } }`,
        {
          input: {
            clientMutationId: 'invite-1',
            projectPath: 'gitlab-org/frontend/web-ui',
            emails: [newcomer, alreadyInvited!.invite_email, member, existingUser, 'NEWCOMER@example.com'],
            accessLevel: 'REPORTER',
            expiresAt: '2026-12-31',
          },
        },
        developer,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.invitationCreate).toEqual({
        clientMutationId: 'invite-1',
        errors: [],
        invited: [newcomer, existingUser],
        failed: [
          { email: alreadyInvited!.invite_email, reason: 'Invite email has already been taken' },
          { email: member, reason: 'User already exists in source' },
        ],
        queued: [],
      });
      // One POST with every address, repeats removed.
      expect(restCalls(harness.simulator)).toEqual(['POST /projects/gitlab-org%2Ffrontend%2Fweb-ui/invitations']);
      const pending = await harness.oracle.all<RestInvitation>('/projects/6/invitations', developer);
      expect(pending.find((invitation) => invitation.invite_email === newcomer)).toMatchObject({ access_level: 20, expires_at: '2026-12-31T00:00:00Z' });
      // The address of an existing user made them a member instead of a pending invitation.
      expect(pending.some((invitation) => invitation.invite_email === existingUser)).toBe(false);
    });

    it('answers all-good with every address invited', async () => {
      const result = await query<{ invitationCreate: CreatePayload }>(
        `mutation { invitationCreate(input: { groupPath: "opensource", emails: ["one@example.com", "two@example.com"], accessLevel: OWNER }) { errors invited failed { email } queued { email } } }`,
        {},
        maintainer,
      );
      expect(result.data!.invitationCreate).toEqual({ errors: [], invited: ['one@example.com', 'two@example.com'], failed: [], queued: [] });
    });

    it('fails with FORBIDDEN for a caller who may not invite, and NOT_FOUND for a group they cannot see', async () => {
      const forbidden = await query(`mutation { invitationCreate(input: { groupPath: "gitlab-org", emails: ["x@example.com"], accessLevel: GUEST }) { errors } }`, {}, guest);
      expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      const hidden = await query(`mutation { invitationCreate(input: { groupPath: "secret-lab", emails: ["x@example.com"], accessLevel: GUEST }) { errors } }`, {}, maintainer);
      expect(hidden.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', restStatus: 404 });
    });

    const tooMany = Array.from({ length: 101 }, (_, index) => `"u${index}@example.com"`).join(', ');
    it.each([
      ['neither group nor project', '{ emails: ["a@example.com"], accessLevel: GUEST }', 'input'],
      ['both group and project', '{ groupPath: "opensource", projectPath: "opensource/cli", emails: ["a@example.com"], accessLevel: GUEST }', 'input'],
      ['no address', '{ groupPath: "opensource", emails: [], accessLevel: GUEST }', 'emails'],
      ['a malformed address', '{ groupPath: "opensource", emails: ["not-an-address"], accessLevel: GUEST }', 'emails'],
      ['two addresses in one', '{ groupPath: "opensource", emails: ["a@example.com,b@example.com"], accessLevel: GUEST }', 'emails'],
      ['no role', '{ groupPath: "opensource", emails: ["a@example.com"], accessLevel: NO_ACCESS }', 'accessLevel'],
      ['Owner of a project', '{ projectPath: "opensource/cli", emails: ["a@example.com"], accessLevel: OWNER }', 'accessLevel'],
      ['101 addresses', `{ groupPath: "opensource", emails: [${tooMany}], accessLevel: GUEST }`, 'emails'],
    ])('refuses %s with BAD_USER_INPUT before any REST call', async (_case, input, argumentName) => {
      const result = await query(`mutation { invitationCreate(input: ${input}) { errors } }`, {}, maintainer);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('invitationUpdate', () => {
    it('changes the role and the expiry with one REST call', async () => {
      const [invitation] = await harness.oracle.all<RestInvitation>('/groups/1/invitations', admin);
      const result = await query<{ invitationUpdate: { errors: string[]; invitation: InvitationNode } }>(
        `mutation($email: String!) { invitationUpdate(input: { groupPath: "gitlab-org", email: $email, accessLevel: MAINTAINER, expiresAt: "2026-06-30T00:00:00Z" }) { errors invitation { ${INVITATION_FIELDS} } } }`,
        { email: invitation!.invite_email },
        admin,
      );
      expect(result.errors).toBeUndefined();
      const updated = (await harness.oracle.all<RestInvitation>('/groups/1/invitations', admin)).find((i) => i.id === invitation!.id)!;
      expect(updated).toMatchObject({ access_level: 40, expires_at: '2026-06-30T00:00:00Z' });
      expect(result.data!.invitationUpdate).toEqual({ errors: [], invitation: asNode(updated, 'GroupMember') });
      expect(restCalls(harness.simulator)).toEqual([`PUT /groups/gitlab-org/invitations/${encodeURIComponent(invitation!.invite_email).replace(/\./g, '%2E')}`]);
    });

    it('answers a refused change in `errors`, and an unknown address with a clear NOT_FOUND', async () => {
      const [invitation] = await harness.oracle.all<RestInvitation>('/groups/1/invitations', admin);
      const past = await query<{ invitationUpdate: { errors: string[]; invitation: null } }>(
        `mutation($email: String!) { invitationUpdate(input: { groupPath: "gitlab-org", email: $email, expiresAt: "2020-01-01T00:00:00Z" }) { errors invitation { id } } }`,
        { email: invitation!.invite_email },
        admin,
      );
      expect(past.data!.invitationUpdate).toEqual({ errors: ['Expires at cannot be a date in the past'], invitation: null });
      const unknown = await query(`mutation { invitationUpdate(input: { groupPath: "gitlab-org", email: "nobody@example.com", accessLevel: GUEST }) { errors } }`, {}, admin);
      expect(unknown.errors?.[0]).toMatchObject({
        message: 'The group gitlab-org has no pending invitation for nobody@example.com.',
        extensions: { code: 'NOT_FOUND', restStatus: 404 },
      });
    });

    it.each([
      ['{ groupPath: "gitlab-org", email: "x@example.com" }', 'input'],
      ['{ projectPath: "gitlab-org/gitlab", email: "x@example.com", accessLevel: OWNER }', 'accessLevel'],
      ['{ groupPath: "gitlab-org", email: "nope", accessLevel: GUEST }', 'email'],
    ])('refuses %s with BAD_USER_INPUT before any REST call', async (input, argumentName) => {
      const result = await query(`mutation { invitationUpdate(input: ${input}) { errors } }`, {}, admin);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('invitationDelete', () => {
    it('deletes an invitation, which then no longer lists', async () => {
      const [invitation] = await harness.oracle.all<RestInvitation>('/groups/6/invitations', admin);
      const result = await query<{ invitationDelete: { clientMutationId: string; errors: string[] } }>(
        `mutation($email: String!) { invitationDelete(input: { clientMutationId: "d1", groupPath: "acme", email: $email }) { clientMutationId errors } }`,
        { email: invitation!.invite_email },
        admin,
      );
      expect(result).toEqual({ data: { invitationDelete: { clientMutationId: 'd1', errors: [] } } });
      expect(restCalls(harness.simulator)).toHaveLength(1);
      expect(await harness.oracle.all<RestInvitation>(`/groups/6/invitations?query=${encodeURIComponent(invitation!.invite_email)}`, admin)).toEqual([]);
    });

    it('maps 404, 403 and 409 to errors that say which case it is', async () => {
      const missing = await query(`mutation { invitationDelete(input: { projectPath: "gitlab-org/gitlab", email: "nobody@example.com" }) { errors } }`, {}, admin);
      expect(missing.errors?.[0]).toMatchObject({
        message: 'The project gitlab-org/gitlab has no pending invitation for nobody@example.com.',
        extensions: { code: 'NOT_FOUND', restStatus: 404 },
      });

      const hidden = await query(`mutation { invitationDelete(input: { groupPath: "secret-lab", email: "nobody@example.com" }) { errors } }`, {}, developer);
      expect(hidden.errors?.[0]).toMatchObject({
        message: 'The group secret-lab does not exist, or is not visible to this credential.',
        extensions: { code: 'NOT_FOUND', restStatus: 404 },
      });

      const [invitation] = await harness.oracle.all<RestInvitation>('/groups/1/invitations', admin);
      const forbidden = await query(`mutation($email: String!) { invitationDelete(input: { groupPath: "gitlab-org", email: $email }) { errors } }`, { email: invitation!.invite_email }, maintainer);
      expect(forbidden.errors?.[0]).toMatchObject({
        message: 'Not allowed to manage the invitations of the group gitlab-org: that takes the Owner role in a group or Maintainer in a project.',
        extensions: { code: 'FORBIDDEN', restStatus: 403 },
      });

      // REST answers 409 when it could not delete a valid invitation; nothing in the demo data
      // causes one, so the embedded server is told to.
      const faultId = harness.simulator.faults.add({ method: 'DELETE', path: /\/invitations\//, kind: 'status', status: 409, body: { message: '409 Conflict' } });
      try {
        const conflict = await query(`mutation($email: String!) { invitationDelete(input: { groupPath: "gitlab-org", email: $email }) { errors } }`, { email: invitation!.invite_email }, admin);
        expect(conflict.errors?.[0]).toMatchObject({
          message: `The invitation for ${invitation!.invite_email} to the group gitlab-org could not be deleted; try again later.`,
          extensions: { code: 'CONFLICT', restStatus: 409 },
        });
      } finally {
        harness.simulator.faults.remove(faultId);
      }
      expect(await harness.oracle.all<RestInvitation>('/groups/1/invitations', admin)).toContainEqual(invitation);
    });
  });
});
