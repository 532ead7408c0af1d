// A merge request's threads in GitLab's own dialect: read the way GitLab's frontend reads
// discussions (notes as a connection, resolvability, who resolved and when), and resolved or
// unresolved with GitLab's discussionToggleResolve by the discussion's ID alone, validated against
// the schema and run over real HTTP against the gateway and the embedded v4 server, checked against
// REST's discussions, with the REST calls each operation makes.
import { parse, validate } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, developer, guest } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitaly';
/** gitlab-org/gitaly's first merge request. */
const MERGE_REQUEST = '/projects/3/merge_requests/1';

const AUTHOR_FRAGMENT = `
fragment Author on UserCore {
  id
  username
}`;

const MERGE_REQUEST_NOTE_FRAGMENT = `${AUTHOR_FRAGMENT}
fragment MergeRequestNote on Note {
  id
  body
  createdAt
  author { ...Author }
  discussion { id }
}`;

const MERGE_REQUEST_DISCUSSIONS = `${MERGE_REQUEST_NOTE_FRAGMENT}
query getMergeRequestDiscussions($fullPath: ID!, $iid: String!) {
  project(fullPath: $fullPath) {
    id
    mergeRequest(iid: $iid) {
      id
      userDiscussionsCount
      discussions(first: 100) {
        count
        nodes {
          id
          replyId
          resolvable
          resolved
          resolvedAt
          resolvedBy { ...Author }
          notes { nodes { ...MergeRequestNote } }
        }
      }
      notes(first: 100) { nodes { id discussion { id resolved } } }
    }
  }
}`;

const ISSUE_DISCUSSION_IDS = `
query getIssueDiscussionIds($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) {
    issue(iid: $iid) { discussions(first: 1) { nodes { id } } }
  }
}`;

const TOGGLE_RESOLVE = `
mutation toggleMergeRequestDiscussionResolve($id: DiscussionID!, $resolve: Boolean!) {
  discussionToggleResolve(input: { id: $id, resolve: $resolve }) {
    discussion {
      id
      resolved
      resolvedAt
      resolvedBy { username }
    }
    errors
  }
}`;

const DOCUMENTS = { MERGE_REQUEST_DISCUSSIONS, ISSUE_DISCUSSION_IDS, TOGGLE_RESOLVE };

interface RestNote {
  id: number;
  body: string;
  created_at: string;
  author: { id: number; username: string };
  resolvable: boolean;
  resolved?: boolean;
  resolved_at?: string | null;
  resolved_by?: { id: number; username: string } | null;
}
interface RestDiscussion {
  id: string;
  notes: RestNote[];
}
interface GqlDiscussion {
  id: string;
  replyId: string;
  resolvable: boolean;
  resolved: boolean;
  resolvedAt: string | null;
  resolvedBy: { id: string; username: string } | null;
  notes: { nodes: Array<{ id: string; body: string; createdAt: string; author: { id: string; username: string }; discussion: { id: string } }> };
}
type MergeRequestDiscussions = {
  project: {
    mergeRequest: {
      userDiscussionsCount: number;
      discussions: { count: number; nodes: GqlDiscussion[] };
      notes: { nodes: Array<{ id: string; discussion: { id: string; resolved: boolean } }> };
    };
  };
};
type Toggle = { discussionToggleResolve: { discussion: { id: string; resolved: boolean; resolvedAt: string | null; resolvedBy: { username: string } | null } | null; errors: string[] } };

const gid = (className: string, id: number | string) => `gid://gitlab/${className}/${id}`;

describe('merge request discussion documents in GitLab\'s style', () => {
  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });
});

describe('a merge request\'s discussions over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const send = <T>(document: string, variables: Record<string, unknown>, token: string = developer) => harness.gateway.query<T>(document, variables, token);
  const read = (token: string = developer) => send<MergeRequestDiscussions>(MERGE_REQUEST_DISCUSSIONS, { fullPath: PROJECT, iid: '1' }, token);
  const restDiscussions = () => harness.oracle.all<RestDiscussion>(`${MERGE_REQUEST}/discussions`, admin);
  let threadIds: string[] = [];

  beforeAll(async () => {
    // Two threads through REST: one answered, one resolved.
    const started = await harness.oracle.call<RestDiscussion>('POST', `${MERGE_REQUEST}/discussions?body=${encodeURIComponent('Rename this method')}`, developer);
    const second = await harness.oracle.call<RestDiscussion>('POST', `${MERGE_REQUEST}/discussions?body=${encodeURIComponent('Add a test')}`, guest);
    threadIds = [started.body.id, second.body.id];
    await harness.oracle.call('POST', `${MERGE_REQUEST}/discussions/${started.body.id}/notes?body=Done`, guest);
    await harness.oracle.call('PUT', `${MERGE_REQUEST}/discussions/${second.body.id}?resolved=true`, admin);
  });

  it('reads discussions, notes and the count from one REST list call, as REST answers them', async () => {
    harness.simulator.resetRequests();
    const result = await read();
    expect(result.errors).toBeUndefined();
    expect(restCalls(harness.simulator).filter((call) => call.includes('/discussions'))).toEqual([`GET ${MERGE_REQUEST}/discussions`]);

    const rest = await restDiscussions();
    const mergeRequest = result.data!.project.mergeRequest;
    expect(mergeRequest.userDiscussionsCount).toBe(rest.length);
    expect(mergeRequest.discussions.count).toBe(rest.length);
    expect(mergeRequest.discussions.nodes).toEqual(
      rest.map((discussion) => {
        const resolved = discussion.notes.every((note) => note.resolved === true);
        const resolvedNote = resolved ? discussion.notes[0]! : null;
        return {
          id: gid('Discussion', discussion.id),
          replyId: gid('Discussion', discussion.id),
          resolvable: true,
          resolved,
          resolvedAt: resolvedNote?.resolved_at ?? null,
          resolvedBy: resolvedNote ? { id: gid('User', resolvedNote.resolved_by!.id), username: resolvedNote.resolved_by!.username } : null,
          notes: {
            nodes: discussion.notes.map((note) => ({
              id: gid('Note', note.id),
              body: note.body,
              createdAt: note.created_at,
              author: { id: gid('User', note.author.id), username: note.author.username },
              discussion: { id: gid('Discussion', discussion.id) },
            })),
          },
        };
      }),
    );
    expect(rest.map((discussion) => discussion.id)).toEqual(threadIds);
    expect(rest[1]!.notes[0]!.resolved_by!.username).toBe('root');
    const allNotes = rest.flatMap((discussion) => discussion.notes.map((note) => ({ note, discussion })));
    allNotes.sort((a, b) => a.note.created_at.localeCompare(b.note.created_at) || a.note.id - b.note.id);
    expect(mergeRequest.notes.nodes).toEqual(
      allNotes.map(({ note, discussion }) => ({ id: gid('Note', note.id), discussion: { id: gid('Discussion', discussion.id), resolved: discussion.notes.every((candidate) => candidate.resolved === true) } })),
    );
  });

  it('resolves and unresolves a discussion it served, with one PUT each, as REST then shows it', async () => {
    const served = await read();
    const open = served.data!.project.mergeRequest.discussions.nodes.find((discussion) => !discussion.resolved)!;

    harness.simulator.resetRequests();
    const resolved = await send<Toggle>(TOGGLE_RESOLVE, { id: open.id, resolve: true });
    expect(resolved.errors).toBeUndefined();
    expect(restCalls(harness.simulator)).toEqual([`PUT ${MERGE_REQUEST}/discussions/${open.id.split('/').at(-1)}`]);
    const rest = (await restDiscussions()).find((discussion) => gid('Discussion', discussion.id) === open.id)!;
    expect(rest.notes.every((note) => note.resolved === true && note.resolved_by!.username === 'developer')).toBe(true);
    expect(resolved.data!.discussionToggleResolve).toEqual({ errors: [], discussion: { id: open.id, resolved: true, resolvedAt: rest.notes[0]!.resolved_at, resolvedBy: { username: 'developer' } } });

    harness.simulator.resetRequests();
    const reopened = await send<Toggle>(TOGGLE_RESOLVE, { id: open.id, resolve: false });
    expect(restCalls(harness.simulator)).toHaveLength(1);
    expect(reopened.data!.discussionToggleResolve).toEqual({ errors: [], discussion: { id: open.id, resolved: false, resolvedAt: null, resolvedBy: null } });
    expect((await restDiscussions()).find((discussion) => gid('Discussion', discussion.id) === open.id)!.notes.every((note) => note.resolved === false)).toBe(true);
  });

  it('refuses before any REST call a discussion it did not serve to this credential', async () => {
    await read(admin);
    harness.simulator.resetRequests();
    const unseen = await send<Toggle>(TOGGLE_RESOLVE, { id: gid('Discussion', 'f'.repeat(40)), resolve: true }, guest);
    const otherCaller = await send<Toggle>(TOGGLE_RESOLVE, { id: gid('Discussion', threadIds[0]!), resolve: true }, DEMO_TOKENS.maintainer);
    const malformed = await send<Toggle>(TOGGLE_RESOLVE, { id: gid('Discussion', 'xyz'), resolve: true }, admin);
    for (const result of [unseen, otherCaller, malformed]) expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(otherCaller.errors![0]!.message).toContain('read it first');
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('refuses an issue\'s discussion as GitLab does, before any REST call', async () => {
    const issue = [...harness.simulator.state.issues.values()].find(
      (candidate) => candidate.projectId === 3 && !candidate.confidential && [...harness.simulator.state.notes.values()].some((note) => note.issueId === candidate.id && !note.confidential),
    )!;
    const issueRead = await send<{ project: { issue: { discussions: { nodes: Array<{ id: string }> } } } }>(ISSUE_DISCUSSION_IDS, { fullPath: PROJECT, iid: String(issue.iid) });
    harness.simulator.resetRequests();
    const refused = await send<Toggle>(TOGGLE_RESOLVE, { id: issueRead.data!.project.issue.discussions.nodes[0]!.id, resolve: true });
    expect(refused.errors?.[0]?.message).toMatch(/^The resource that you are attempting to access does not exist or you don't have permission to perform this action/);
    expect(restCalls(harness.simulator)).toEqual([]);
  });

  it('passes on REST\'s 403 for a Guest who is not the merge request\'s author', async () => {
    const served = await read(guest);
    harness.simulator.resetRequests();
    const refused = await send<Toggle>(TOGGLE_RESOLVE, { id: served.data!.project.mergeRequest.discussions.nodes[0]!.id, resolve: true }, guest);
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
    expect(restCalls(harness.simulator)).toHaveLength(1);
  });
});
