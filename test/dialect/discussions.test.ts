// Discussions in GitLab's own dialect: an issue's threads read the way GitLab's frontend reads them
// (notes as a connection, resolvability, the ID to reply with), validated against the schema and
// run over real HTTP against the gateway and the embedded v4 server, checked against REST's
// discussions. Resolvability follows GitLab's ResolvableDiscussion, tested for every state.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import type { DiscussionSchema, NoteSchema } from '../../src/datasources/notes.js';
import { isResolvable, isResolved, lastResolvedNote } from '../../src/resolvers/discussions/Discussion.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, developer } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitaly';
const PROJECT_PATH = encodeURIComponent(PROJECT);

const DISCUSSION_FRAGMENT = `
fragment DiscussionFragment on Discussion {
  id
  replyId
  createdAt
  individualNote
  resolvable
  resolved
  resolvedAt
  resolvedBy { id username }
  notes(first: $notesFirst) {
    pageInfo { hasNextPage endCursor }
    nodes { id body author { username } }
  }
}`;

const ISSUE_DISCUSSIONS = `${DISCUSSION_FRAGMENT}
query getIssueDiscussions($fullPath: ID!, $iid: String, $notesFirst: Int) {
  project(fullPath: $fullPath) {
    id
    issue(iid: $iid) {
      id
      discussions(first: 100) {
        nodes { ...DiscussionFragment }
      }
    }
  }
}`;

const REPLY_TO_DISCUSSION = `
mutation replyToDiscussion($input: CreateNoteInput!) {
  createNote(input: $input) { note { id body } errors }
}`;

const ISSUE_NOTE_AWARDS = `
fragment AwardEmojiFragment on AwardEmoji {
  name
  user { id username }
}

query getIssueNoteAwards($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) {
    issue(iid: $iid) {
      notes(first: 3) {
        nodes {
          id
          awardEmoji { nodes { ...AwardEmojiFragment } }
        }
      }
    }
  }
}`;

const AWARD_EMOJI_TOGGLE = `
mutation toggleAward($awardableId: AwardableID!, $name: String!, $noteableId: NoteableID) {
  awardEmojiToggle(input: { awardableId: $awardableId, name: $name, noteableId: $noteableId }) {
    toggledOn
    awardEmoji { name user { username } }
    errors
  }
}`;

const DOCUMENTS = { ISSUE_DISCUSSIONS, REPLY_TO_DISCUSSION, ISSUE_NOTE_AWARDS, AWARD_EMOJI_TOGGLE };

interface RestDiscussion {
  id: string;
  individual_note: boolean;
  notes: Array<{ id: number; body: string; created_at: string; author: { username: string } }>;
}
interface GqlDiscussion {
  id: string;
  replyId: string;
  createdAt: string;
  individualNote: boolean;
  resolvable: boolean;
  resolved: boolean;
  resolvedAt: string | null;
  resolvedBy: { username: string } | null;
  notes: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: Array<{ id: string; body: string; author: { username: string } }> };
}
type IssueDiscussions = { project: { issue: { discussions: { nodes: GqlDiscussion[] } } } };

const gid = (className: string, id: number | string) => `gid://gitlab/${className}/${id}`;

describe('discussion documents in GitLab\'s style', () => {
  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });
});

describe('resolvability of a discussion, as GitLab derives it from its notes', () => {
  const resolver = { id: 7, username: 'maintainer', name: 'M', state: 'active', avatar_url: null, web_url: 'http://x/maintainer' };
  const note = (overrides: Partial<NoteSchema>): NoteSchema => ({ id: 1, body: 'b', created_at: '2024-01-01T00:00:00Z', ...overrides });
  const discussion = (notes: NoteSchema[]): DiscussionSchema => ({ id: 'a'.repeat(40), individual_note: false, notes });
  const resolvedNote = (id: number, at: string) => note({ id, resolvable: true, resolved: true, resolved_at: at, resolved_by: { ...resolver, id } });

  it.each([
    ['a plain comment, which no one resolves', [note({ resolvable: false })], false, false, null],
    ['a thread with an open resolvable note', [note({ resolvable: true, resolved: false, resolved_at: null, resolved_by: null })], true, false, null],
    ['a thread resolved only in part', [resolvedNote(1, '2024-02-01T00:00:00Z'), note({ id: 2, resolvable: true, resolved: false })], true, false, null],
    ['a thread resolved note by note, the latest speaking for it', [resolvedNote(1, '2024-03-01T00:00:00Z'), resolvedNote(2, '2024-02-01T00:00:00Z'), note({ id: 3, system: true, resolvable: false })], true, true, 1],
  ])('%s', (_name, notes, resolvable, resolved, lastResolvedId) => {
    const record = discussion(notes);
    expect(isResolvable(record)).toBe(resolvable);
    expect(isResolved(record)).toBe(resolved);
    expect(lastResolvedNote(record)?.id ?? null).toBe(lastResolvedId);
  });
});

describe('an issue\'s discussions over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const send = <T>(document: string, variables: Record<string, unknown>) => harness.gateway.query<T>(document, variables, admin);

  /** An issue of the project with at least one comment. */
  function anIssue() {
    const { state } = harness.simulator;
    const issue = [...state.issues.values()].find(
      (candidate) => candidate.projectId === 3 && !candidate.confidential && [...state.notes.values()].some((note) => note.issueId === candidate.id),
    )!;
    return { iid: issue.iid, id: issue.id };
  }

  it('reads each discussion with its notes as a connection, in one REST list call, as REST groups them', async () => {
    const issue = anIssue();
    const result = await send<IssueDiscussions>(ISSUE_DISCUSSIONS, { fullPath: PROJECT, iid: String(issue.iid), notesFirst: 20 });
    expect(result.errors).toBeUndefined();
    const discussionCalls = restCalls(harness.simulator).filter((call) => call.includes('/discussions'));
    // The notes come embedded in REST's discussions: no call per discussion.
    expect(discussionCalls).toEqual([`GET /projects/3/issues/${issue.iid}/discussions`]);

    const rest = await harness.oracle.all<RestDiscussion>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/discussions`, admin);
    expect(result.data!.project.issue.discussions.nodes).toEqual(
      rest.map((discussion) => ({
        id: gid('Discussion', discussion.id),
        replyId: gid('Discussion', discussion.id),
        createdAt: discussion.notes[0]!.created_at,
        individualNote: discussion.individual_note,
        // Notes of issues cannot be resolved.
        resolvable: false,
        resolved: false,
        resolvedAt: null,
        resolvedBy: null,
        notes: {
          pageInfo: { hasNextPage: false, endCursor: expect.any(String) as string },
          nodes: discussion.notes.map((note) => ({ id: gid('Note', note.id), body: note.body, author: { username: note.author.username } })),
        },
      })),
    );
  });

  it('replies with replyId, and pages a thread\'s notes without another call', async () => {
    const issue = anIssue();
    const before = await send<IssueDiscussions>(ISSUE_DISCUSSIONS, { fullPath: PROJECT, iid: String(issue.iid), notesFirst: 1 });
    const first = before.data!.project.issue.discussions.nodes[0]!;
    const reply = await send<{ createNote: { note: { body: string }; errors: string[] } }>(REPLY_TO_DISCUSSION, {
      input: { noteableId: gid('Issue', issue.id), discussionId: first.replyId, body: 'Agreed, in the thread' },
    });
    expect(reply.data!.createNote).toMatchObject({ errors: [], note: { body: 'Agreed, in the thread' } });

    harness.simulator.resetRequests();
    const after = await send<IssueDiscussions>(ISSUE_DISCUSSIONS, { fullPath: PROJECT, iid: String(issue.iid), notesFirst: 1 });
    const thread = after.data!.project.issue.discussions.nodes.find((discussion) => discussion.id === first.id)!;
    expect(thread.individualNote).toBe(false);
    expect(thread.notes.nodes).toHaveLength(1);
    expect(thread.notes.pageInfo.hasNextPage).toBe(true);
    expect(restCalls(harness.simulator).filter((call) => call.includes('/discussions'))).toHaveLength(1);
    const rest = await harness.oracle.all<RestDiscussion>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/discussions`, admin);
    expect(rest.find((discussion) => gid('Discussion', discussion.id) === first.id)!.notes.at(-1)!.body).toBe('Agreed, in the thread');
  });
});

interface RestAward {
  id: number;
  name: string;
  user: { id: number; username: string };
}
type Toggle = { awardEmojiToggle: { toggledOn: boolean; awardEmoji: { name: string; user: { username: string } } | null; errors: string[] } };

describe('emoji reactions on issues and their notes over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const send = <T>(document: string, variables: Record<string, unknown>, token: string = admin) => harness.gateway.query<T>(document, variables, token);

  /** A public issue of the project with notes, one of them given a reaction through REST. */
  async function anIssueWithAwardedNote() {
    const { state } = harness.simulator;
    const issue = [...state.issues.values()].find(
      (candidate) => candidate.projectId === 3 && !candidate.confidential && [...state.notes.values()].filter((note) => note.issueId === candidate.id && !note.confidential).length >= 1,
    )!;
    const note = [...state.notes.values()].filter((candidate) => candidate.issueId === issue.id).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id)[0]!;
    const awarded = await fetch(`${harness.simulator.url}/projects/3/issues/${issue.iid}/notes/${note.id}/award_emoji`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': developer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'eyes' }),
    });
    expect([201, 404]).toContain(awarded.status);
    harness.simulator.resetRequests();
    return { issue, note };
  }

  it('reads each note\'s reactions with one REST call per note, as REST lists them', async () => {
    const { issue, note } = await anIssueWithAwardedNote();
    const result = await send<{ project: { issue: { notes: { nodes: Array<{ id: string; awardEmoji: { nodes: Array<{ name: string; user: { id: string; username: string } }> } }> } } } }>(ISSUE_NOTE_AWARDS, {
      fullPath: PROJECT,
      iid: String(issue.iid),
    });
    expect(result.errors).toBeUndefined();
    const notes = result.data!.project.issue.notes.nodes;
    const awardCalls = restCalls(harness.simulator).filter((call) => call.endsWith('/award_emoji'));
    expect(awardCalls).toHaveLength(notes.length);
    for (const gqlNote of notes) {
      const noteId = Number(gqlNote.id.split('/').pop());
      const rest = await harness.oracle.all<RestAward>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/notes/${noteId}/award_emoji`, admin);
      expect(gqlNote.awardEmoji.nodes).toEqual(rest.map((award) => ({ name: award.name, user: { id: gid('User', award.user.id), username: award.user.username } })));
    }
    expect(notes.find((gqlNote) => gqlNote.id === gid('Note', note.id))!.awardEmoji.nodes).toContainEqual({ name: 'eyes', user: { id: expect.any(String) as string, username: 'developer' } });
  });

  it.each(['issue', 'note'] as const)('toggles an award on an %s on, then off, as REST then has it', async (kind) => {
    const { issue, note } = await anIssueWithAwardedNote();
    const awardsPath = kind === 'issue' ? `/projects/3/issues/${issue.iid}/award_emoji` : `/projects/3/issues/${issue.iid}/notes/${note.id}/award_emoji`;
    const variables = kind === 'issue' ? { awardableId: gid('Issue', issue.id), name: 'rocket' } : { awardableId: gid('Note', note.id), noteableId: gid('Issue', issue.id), name: 'rocket' };
    const mine = async () => (await harness.oracle.all<RestAward>(awardsPath, developer)).filter((award) => award.name === 'rocket' && award.user.username === 'developer');

    // The developer reads the issue first, so the gateway knows its project without GET /issues/:id.
    await send(ISSUE_DISCUSSIONS, { fullPath: PROJECT, iid: String(issue.iid), notesFirst: 1 }, developer);
    harness.simulator.resetRequests();
    const on = await send<Toggle>(AWARD_EMOJI_TOGGLE, variables, developer);
    expect(on.errors).toBeUndefined();
    expect(on.data!.awardEmojiToggle).toEqual({ toggledOn: true, awardEmoji: { name: 'rocket', user: { username: 'developer' } }, errors: [] });
    expect(restCalls(harness.simulator)).toEqual(['GET /user', `GET ${awardsPath}`, `POST ${awardsPath}`]);
    expect(await mine()).toHaveLength(1);

    harness.simulator.resetRequests();
    const off = await send<Toggle>(AWARD_EMOJI_TOGGLE, variables, developer);
    expect(off.data!.awardEmojiToggle).toMatchObject({ toggledOn: false, awardEmoji: { name: 'rocket' }, errors: [] });
    expect(restCalls(harness.simulator).at(-1)).toMatch(new RegExp(`^DELETE ${awardsPath}/\\d+$`));
    expect(await mine()).toEqual([]);
  });

  it('reports REST\'s refusal of a name that is no emoji in errors', async () => {
    const { issue } = await anIssueWithAwardedNote();
    const result = await send<Toggle>(AWARD_EMOJI_TOGGLE, { awardableId: gid('Issue', issue.id), name: 'Not An Emoji' });
    expect(result.data!.awardEmojiToggle).toEqual({ toggledOn: false, awardEmoji: null, errors: ['Name is not a valid emoji name'] });
  });

  it('refuses an awardable REST cannot reach before any REST call', async () => {
    const { note } = await anIssueWithAwardedNote();
    for (const [variables, argumentName] of [
      [{ awardableId: 'gid://gitlab/MergeRequest/1', name: 'rocket' }, 'awardableId'],
      [{ awardableId: gid('Note', note.id), name: 'rocket' }, 'noteableId'],
      [{ awardableId: 'gid://gitlab/Project/1', name: 'rocket' }, undefined],
    ] as const) {
      const result = await send(AWARD_EMOJI_TOGGLE, variables);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', ...(argumentName ? { argumentName } : {}) });
    }
    expect(restCalls(harness.simulator)).toEqual([]);
  });
});
