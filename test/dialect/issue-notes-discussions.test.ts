// What GitLab's notes app asks of a note beyond its text, in GitLab's own dialect: the author's role
// in the project (Note.maxAccessLevelOfAuthor, the "Maintainer" badge), the discussion a note is part
// of (Note.discussion) and how many discussions users started on an issue
// (Issue.userDiscussionsCount). Every document validates against the schema and runs over real HTTP
// against the gateway and the embedded v4 server; answers are checked against REST's members and
// discussions, and the REST calls are counted.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, USER_IDS, type Note as SimulatedNote } from '../../simulator/index.js';
import type { DiscussionSchema, NoteSchema } from '../../src/datasources/notes.js';
import { userDiscussionsCount } from '../../src/resolvers/discussions/note-discussion.js';
import { humanAccessLevel } from '../../src/resolvers/issues/note-author-access.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator, type Harness } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitaly';
const PROJECT_ID = 3;

const NOTE_AUTHOR_FRAGMENT = `
fragment NoteAuthorFragment on Note {
  id
  author { id username }
  maxAccessLevelOfAuthor
}`;

const ISSUE_NOTES_WITH_ROLES = `${NOTE_AUTHOR_FRAGMENT}
query issueNotesWithRoles($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) {
    issue(iid: $iid) {
      id
      notes(first: 100) { nodes { ...NoteAuthorFragment } }
    }
  }
}`;

const ISSUE_NOTES_WITH_DISCUSSIONS = `
query issueNotesWithDiscussions($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) {
    issue(iid: $iid) {
      id
      userDiscussionsCount
      notes(first: 100) {
        nodes {
          id
          discussion { id replyId individualNote notes { nodes { id } } }
        }
      }
    }
  }
}`;

const ISSUE_DISCUSSION_NOTES = `
query issueDiscussionNotes($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) {
    issue(iid: $iid) {
      discussions(first: 100) {
        nodes {
          id
          notes { nodes { id discussion { id } } }
        }
      }
    }
  }
}`;

const PROJECT_ISSUES_COUNTS = `
query projectIssuesDiscussionCounts($fullPath: ID!, $first: Int) {
  project(fullPath: $fullPath) {
    issues(first: $first, state: opened) {
      nodes { iid userDiscussionsCount }
    }
  }
}`;

const CREATE_NOTE = `
mutation createIssueNote($input: CreateNoteInput!) {
  createNote(input: $input) {
    errors
    note { id discussion { id replyId individualNote notes { nodes { id body } } } }
  }
}`;

// Two comments in one operation: mutations run one after the other, so the second payload's
// discussion is read after the second write, not from the first payload's read.
const CREATE_TWO_NOTES = `
fragment CreatedNoteFragment on Note {
  id
  discussion { id replyId individualNote notes { nodes { id body } } }
}

mutation createTwoIssueNotes($first: CreateNoteInput!, $second: CreateNoteInput!) {
  first: createNote(input: $first) { errors note { ...CreatedNoteFragment } }
  second: createNote(input: $second) { errors note { ...CreatedNoteFragment } }
}`;

const DOCUMENTS = { ISSUE_NOTES_WITH_ROLES, ISSUE_NOTES_WITH_DISCUSSIONS, ISSUE_DISCUSSION_NOTES, PROJECT_ISSUES_COUNTS, CREATE_NOTE, CREATE_TWO_NOTES };

interface RestDiscussion {
  id: string;
  individual_note: boolean;
  notes: Array<{ id: number; body: string; system: boolean }>;
}

type CreatedNote = { id: string; discussion: { id: string; replyId: string; individualNote: boolean; notes: { nodes: Array<{ id: string; body: string }> } } | null };

const gid = (className: string, id: number | string) => `gid://gitlab/${className}/${id}`;
const idOf = (globalId: string) => Number(globalId.split('/').pop());

describe('note and discussion documents in GitLab\'s style', () => {
  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });
});

describe('the author\'s access level in words, as GitLab\'s Gitlab::Access.human_access names it', () => {
  it.each([
    [0, null],
    [5, null],
    [10, 'Guest'],
    [15, 'Planner'],
    [20, 'Reporter'],
    [30, 'Developer'],
    [40, 'Maintainer'],
    [50, 'Owner'],
    [60, null],
    [null, null],
  ])('access level %s reads %s', (level, words) => {
    expect(humanAccessLevel(level)).toBe(words);
  });
});

describe('the user discussions of an issue, as GitLab counts them', () => {
  const note = (id: number, system: boolean): NoteSchema => ({ id, body: 'b', system });
  const discussion = (...notes: NoteSchema[]): DiscussionSchema => ({ id: String(notes[0]!.id).padStart(40, '0'), individual_note: notes.length === 1, notes });

  it.each([
    ['no discussion', [], 0],
    ['a plain comment', [discussion(note(1, false))], 1],
    ['a system note only', [discussion(note(1, true))], 0],
    ['a thread of two user notes, counted once', [discussion(note(1, false), note(2, false))], 1],
    ['a thread with a system note in it, still a user discussion', [discussion(note(1, true), note(2, false))], 1],
    ['comments beside system notes', [discussion(note(1, false)), discussion(note(2, true)), discussion(note(3, false))], 2],
  ])('%s', (_name, discussions, count) => {
    expect(userDiscussionsCount(discussions)).toBe(count);
  });
});

/** A comment through REST, as the given user. */
async function comment(harness: Harness, iid: number, token: string, body: string): Promise<number> {
  const response = await fetch(`${harness.simulator.url}/projects/${PROJECT_ID}/issues/${iid}/notes`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' },
    body: JSON.stringify({ body }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

/** A public, open issue of the project, its discussion not locked, that no test of this file wrote to yet. */
function freshIssue(harness: Harness, taken: Set<number>) {
  const { state } = harness.simulator;
  const issue = [...state.issues.values()].find(
    (candidate) => candidate.projectId === PROJECT_ID && !candidate.confidential && !candidate.discussionLocked && candidate.state === 'opened' && !taken.has(candidate.id),
  )!;
  taken.add(issue.id);
  return issue;
}

describe('Note.maxAccessLevelOfAuthor over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const taken = new Set<number>();
  const ROLE_NAMES: Record<number, string> = { 10: 'Guest', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner' };

  /** What REST's members API says of the user in the project, in GitLab's words; null for no member. */
  async function restRole(userId: number): Promise<string | null> {
    const answer = await harness.oracle.call<{ access_level: number }>('GET', `/projects/${PROJECT_ID}/members/all/${userId}`, admin);
    if (answer.status === 404) return null;
    expect(answer.status).toBe(200);
    return ROLE_NAMES[answer.body.access_level] ?? null;
  }

  it('names each author\'s role in the project as REST\'s members API has it, one look-up per author', async () => {
    const issue = freshIssue(harness, taken);
    for (const [token, body] of [[admin, 'From the administrator'], [maintainer, 'From a maintainer'], [developer, 'From a developer'], [guest, 'From a guest'], [outsider, 'From an outsider'], [developer, 'The developer again']] as const) {
      await comment(harness, issue.iid, token, body);
    }
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<{ project: { issue: { notes: { nodes: Array<{ id: string; author: { id: string; username: string }; maxAccessLevelOfAuthor: string | null }> } } } }>(
      ISSUE_NOTES_WITH_ROLES,
      { fullPath: PROJECT, iid: String(issue.iid) },
      developer,
    );
    expect(result.errors).toBeUndefined();
    const notes = result.data!.project.issue.notes.nodes;
    const authors = [...new Set(notes.map((note) => idOf(note.author.id)))];
    expect(authors.length).toBeGreaterThanOrEqual(5);

    // One GET .../members/all/:user_id per distinct author, however many notes each wrote.
    const memberCalls = restCalls(harness.simulator).filter((call) => call.includes('/members/'));
    expect(memberCalls.sort()).toEqual(authors.map((id) => `GET /projects/${PROJECT_ID}/members/all/${id}`).sort());

    for (const note of notes) expect(note.maxAccessLevelOfAuthor).toBe(await restRole(idOf(note.author.id)));
    const byUser = new Map(notes.map((note) => [note.author.username, note.maxAccessLevelOfAuthor]));
    // The outsider is no member of the project (REST's 404): GitLab names no role.
    expect(byUser.get('outsider')).toBeNull();
    expect(byUser.get('developer')).toBe(await restRole(USER_IDS.developer));
    expect(new Set(notes.map((note) => note.maxAccessLevelOfAuthor)).size).toBeGreaterThanOrEqual(3);
  });

  it('answers null to an anonymous caller without asking REST\'s members API, which authenticates every request', async () => {
    const issue = freshIssue(harness, taken);
    await comment(harness, issue.iid, maintainer, 'Seen anonymously');
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<{ project: { issue: { notes: { nodes: Array<{ maxAccessLevelOfAuthor: string | null }> } } } }>(ISSUE_NOTES_WITH_ROLES, {
      fullPath: PROJECT,
      iid: String(issue.iid),
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.issue.notes.nodes.map((note) => note.maxAccessLevelOfAuthor)).toEqual(result.data!.project.issue.notes.nodes.map(() => null));
    expect(restCalls(harness.simulator).filter((call) => call.includes('/members/'))).toEqual([]);
  });
});

describe('Note.discussion and Issue.userDiscussionsCount over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const taken = new Set<number>();

  const restDiscussions = (iid: number, token: string = admin) => harness.oracle.all<RestDiscussion>(`/projects/${PROJECT_ID}/issues/${iid}/discussions`, token);
  const restUserDiscussions = async (iid: number) => (await restDiscussions(iid)).filter((discussion) => discussion.notes.some((note) => !note.system)).length;
  /** The discussion REST lists the note in, as the created-note documents select it. */
  async function expectedDiscussion(iid: number, noteId: string) {
    const owner = (await restDiscussions(iid)).find((discussion) => discussion.notes.some((candidate) => gid('Note', candidate.id) === noteId))!;
    return {
      id: gid('Discussion', owner.id),
      replyId: gid('Discussion', owner.id),
      individualNote: owner.individual_note,
      notes: { nodes: owner.notes.map((candidate) => ({ id: gid('Note', candidate.id), body: candidate.body })) },
    };
  }
  /**
   * A fresh issue the caller has read through the gateway (REST finds an issue by global ID for
   * administrators only), with the request log emptied after the read.
   */
  async function issueReadBy(token: string) {
    const issue = freshIssue(harness, taken);
    await harness.gateway.query(ISSUE_NOTES_WITH_DISCUSSIONS, { fullPath: PROJECT, iid: String(issue.iid) }, token);
    harness.simulator.resetRequests();
    return issue;
  }
  const discussionCalls = () => restCalls(harness.simulator).filter((call) => call.includes('/discussions'));

  /** A note written by the system (a state change, say), as GitLab lists them among the discussions. */
  function addSystemNote(issueId: number): void {
    const { state } = harness.simulator;
    const id = state.nextId('notes');
    const note: SimulatedNote = { id, issueId, authorId: USER_IDS.maintainer, body: 'changed the description', system: true, confidential: false, createdAt: state.now.toISOString() };
    state.notes.set(id, note);
  }

  it('finds each note\'s discussion and counts the user discussions with one read of the issue\'s discussions', async () => {
    const issue = freshIssue(harness, taken);
    const first = await comment(harness, issue.iid, developer, 'A plain comment');
    addSystemNote(issue.id);
    const restBefore = await restDiscussions(issue.iid);
    const thread = restBefore.find((discussion) => discussion.notes.some((note) => note.id === first))!;
    const reply = await fetch(`${harness.simulator.url}/projects/${PROJECT_ID}/issues/${issue.iid}/discussions/${thread.id}/notes`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': maintainer, 'Content-Type': 'application/json' },
      body: JSON.stringify({ body: 'A reply, which makes it a thread' }),
    });
    expect(reply.status).toBe(201);
    harness.simulator.resetRequests();

    type Result = {
      project: { issue: { userDiscussionsCount: number; notes: { nodes: Array<{ id: string; discussion: { id: string; replyId: string; individualNote: boolean; notes: { nodes: Array<{ id: string }> } } | null }> } } };
    };
    const result = await harness.gateway.query<Result>(ISSUE_NOTES_WITH_DISCUSSIONS, { fullPath: PROJECT, iid: String(issue.iid) }, developer);
    expect(result.errors).toBeUndefined();
    // The count and every note's discussion share one read of the list (one page here).
    expect(discussionCalls()).toEqual([`GET /projects/${PROJECT_ID}/issues/${issue.iid}/discussions`]);

    const rest = await restDiscussions(issue.iid, developer);
    expect(result.data!.project.issue.userDiscussionsCount).toBe(await restUserDiscussions(issue.iid));
    expect(result.data!.project.issue.userDiscussionsCount).toBe(rest.length - 1);
    for (const note of result.data!.project.issue.notes.nodes) {
      const owner = rest.find((discussion) => discussion.notes.some((candidate) => gid('Note', candidate.id) === note.id))!;
      expect(note.discussion).toEqual({
        id: gid('Discussion', owner.id),
        replyId: gid('Discussion', owner.id),
        individualNote: owner.individual_note,
        notes: { nodes: owner.notes.map((candidate) => ({ id: gid('Note', candidate.id) })) },
      });
    }
  });

  it('answers a note reached through its discussion with that discussion, with no further call', async () => {
    const issue = freshIssue(harness, taken);
    await comment(harness, issue.iid, developer, 'One');
    await comment(harness, issue.iid, guest, 'Two');
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<{ project: { issue: { discussions: { nodes: Array<{ id: string; notes: { nodes: Array<{ id: string; discussion: { id: string } }> } }> } } } }>(
      ISSUE_DISCUSSION_NOTES,
      { fullPath: PROJECT, iid: String(issue.iid) },
      developer,
    );
    expect(result.errors).toBeUndefined();
    const discussions = result.data!.project.issue.discussions.nodes;
    expect(discussions.length).toBeGreaterThanOrEqual(2);
    for (const discussion of discussions) for (const note of discussion.notes.nodes) expect(note.discussion.id).toBe(discussion.id);
    // Only the connection's own page: the notes' discussions are the ones they came through.
    expect(discussionCalls()).toEqual([`GET /projects/${PROJECT_ID}/issues/${issue.iid}/discussions`]);
  });

  it('counts every page of an issue\'s discussions, past REST\'s 100 a page', async () => {
    const issue = freshIssue(harness, taken);
    const { state } = harness.simulator;
    // 120 plain comments and one system note: more than one REST page.
    for (let n = 0; n < 120; n++) {
      const id = state.nextId('notes');
      state.notes.set(id, { id, issueId: issue.id, authorId: USER_IDS.developer, body: `Comment ${n}`, system: false, confidential: false, createdAt: state.now.toISOString() });
    }
    addSystemNote(issue.id);
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<{ project: { issues: { nodes: Array<{ iid: string; userDiscussionsCount: number }> } } }>(PROJECT_ISSUES_COUNTS, { fullPath: PROJECT, first: 100 }, developer);
    expect(result.errors).toBeUndefined();
    const counts = result.data!.project.issues.nodes;
    const big = counts.find((node) => node.iid === String(issue.iid))!;
    expect(big.userDiscussionsCount).toBe(await restUserDiscussions(issue.iid));
    expect(big.userDiscussionsCount).toBeGreaterThanOrEqual(120);
    // One page per issue, two for the issue past 100 discussions.
    const calls = discussionCalls();
    expect(calls.filter((call) => call === `GET /projects/${PROJECT_ID}/issues/${issue.iid}/discussions`)).toHaveLength(2);
    expect(calls).toHaveLength(counts.length + 1);
    for (const node of counts.slice(0, 5)) expect(node.userDiscussionsCount).toBe(await restUserDiscussions(Number(node.iid)));
  });

  it('answers a new note\'s discussion in createNote\'s payload, read after the write', async () => {
    const issue = await issueReadBy(developer);
    const result = await harness.gateway.query<{ createNote: { errors: string[]; note: CreatedNote } }>(
      CREATE_NOTE,
      { input: { noteableId: gid('Issue', issue.id), body: 'Posted through the gateway' } },
      developer,
    );
    expect(result.errors).toBeUndefined();
    const { note } = result.data!.createNote;
    expect(note.discussion).toEqual(await expectedDiscussion(issue.iid, note.id));
    expect(note.discussion).toMatchObject({ individualNote: true, notes: { nodes: [{ id: note.id, body: 'Posted through the gateway' }] } });
  });

  it('reads the discussions again after each write of one operation, so a later payload finds its note', async () => {
    const issue = await issueReadBy(developer);
    const input = (body: string) => ({ noteableId: gid('Issue', issue.id), body });
    const result = await harness.gateway.query<{ first: { note: CreatedNote }; second: { note: CreatedNote } }>(
      CREATE_TWO_NOTES,
      { first: input('First of two'), second: input('Second of two') },
      developer,
    );
    expect(result.errors).toBeUndefined();
    const { first, second } = result.data!;
    expect(first.note.discussion!.notes.nodes).toEqual([{ id: first.note.id, body: 'First of two' }]);
    expect(second.note.discussion).toEqual(await expectedDiscussion(issue.iid, second.note.id));
    expect(discussionCalls()).toEqual([`GET /projects/${PROJECT_ID}/issues/${issue.iid}/discussions`, `GET /projects/${PROJECT_ID}/issues/${issue.iid}/discussions`]);
  });
});
