// Comments on issues in GitLab's own dialect: Issue.notes and Issue.discussions read the way GitLab's
// frontend reads them, and createNote / updateNote / destroyNote written with GitLab's inputs and ID
// scalars. Every document validates against the schema and runs over real HTTP against the gateway
// and the embedded v4 server, with the answers checked against REST's notes and discussions.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, developer, guest } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitaly';
const PROJECT_PATH = encodeURIComponent(PROJECT);

const NOTE_FRAGMENT = `
fragment NoteFragment on Note {
  id
  body
  bodyHtml
  system
  internal
  createdAt
  updatedAt
  lastEditedAt
  url
  resolvable
  resolved
  author { id username name webPath }
}`;

const ISSUE_NOTES = `${NOTE_FRAGMENT}
query issueNotes($fullPath: ID!, $iid: String, $first: Int, $after: String) {
  project(fullPath: $fullPath) {
    id
    issue(iid: $iid) {
      id
      notes(first: $first, after: $after) {
        count
        pageInfo { hasNextPage endCursor }
        nodes { ...NoteFragment }
      }
    }
  }
}`;

const ISSUE_DISCUSSIONS = `
query issueDiscussions($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) {
    issue(iid: $iid) {
      discussions(first: 100) { count nodes { id individualNote notes { nodes { id body author { username } } } } }
    }
  }
}`;

const CREATE_NOTE = `${NOTE_FRAGMENT}
mutation createNote($input: CreateNoteInput!) {
  createNote(input: $input) { note { ...NoteFragment } errors }
}`;

const UPDATE_NOTE = `${NOTE_FRAGMENT}
mutation updateNote($input: UpdateNoteInput!) {
  updateNote(input: $input) { note { ...NoteFragment } errors }
}`;

const DESTROY_NOTE = `
mutation destroyNote($input: DestroyNoteInput!) {
  destroyNote(input: $input) { note { id body } errors }
}`;

const NOTE_PERMISSIONS = `
query notePermissions($fullPath: ID!, $iid: String) {
  project(fullPath: $fullPath) {
    issue(iid: $iid) {
      discussionLocked
      notes(first: 100) { nodes { id author { username } userPermissions { adminNote awardEmoji createNote readNote repositionNote resolveNote } } }
    }
  }
}`;

const DOCUMENTS = { ISSUE_NOTES, ISSUE_DISCUSSIONS, CREATE_NOTE, UPDATE_NOTE, DESTROY_NOTE, NOTE_PERMISSIONS };

interface RestNote {
  id: number;
  body: string;
  system: boolean;
  internal: boolean;
  created_at: string;
  author: { username: string };
}
interface RestDiscussion {
  id: string;
  individual_note: boolean;
  notes: RestNote[];
}
interface GqlNote {
  id: string;
  body: string;
  lastEditedAt: string | null;
  url: string | null;
  bodyHtml: string | null;
  system: boolean;
  internal: boolean;
  author: { username: string };
}

const gid = (className: string, id: number | string) => `gid://gitlab/${className}/${id}`;

describe('note documents in GitLab\'s style', () => {
  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });
});

describe('notes on issues over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const send = <T>(document: string, variables: Record<string, unknown>, token: string = admin) => harness.gateway.query<T>(document, variables, token);

  /** An issue of the project with a few notes, and its global ID. */
  function anIssue(minNotes = 1) {
    const { state } = harness.simulator;
    const issue = [...state.issues.values()].find(
      (candidate) => candidate.projectId === 3 && !candidate.confidential && [...state.notes.values()].filter((note) => note.issueId === candidate.id).length >= minNotes,
    )!;
    return { iid: issue.iid, globalId: gid('Issue', issue.id), id: issue.id };
  }

  it('lists an issue\'s notes oldest first, as REST has them, with their rendered bodies, in pages', async () => {
    const issue = anIssue(2);
    const result = await send<{ project: { issue: { notes: { count: number; pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: GqlNote[] } } } }>(ISSUE_NOTES, {
      fullPath: PROJECT,
      iid: String(issue.iid),
      first: 1,
    });
    expect(result.errors).toBeUndefined();
    const rest = await harness.oracle.all<RestNote>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/notes?sort=asc`, admin);
    const { notes } = result.data!.project.issue;
    expect(notes.count).toBe(rest.length);
    expect(notes.pageInfo.hasNextPage).toBe(true);
    expect(notes.nodes.map((note) => [note.id, note.body, note.system, note.internal, note.author.username])).toEqual(
      rest.slice(0, 1).map((note) => [gid('Note', note.id), note.body, note.system, note.internal, note.author.username]),
    );
    expect(notes.nodes[0]!.bodyHtml).toMatch(/^<p[^>]*>/);
    const next = await send<{ project: { issue: { notes: { nodes: GqlNote[] } } } }>(ISSUE_NOTES, { fullPath: PROJECT, iid: String(issue.iid), first: 1, after: notes.pageInfo.endCursor });
    expect(next.data!.project.issue.notes.nodes.map((note) => note.id)).toEqual([gid('Note', rest[1]!.id)]);
  });

  it('lists an issue\'s discussions with their notes, as REST groups them', async () => {
    const issue = anIssue();
    const result = await send<{ project: { issue: { discussions: { count: number; nodes: Array<{ id: string; individualNote: boolean; notes: { nodes: Array<{ id: string; body: string }> } }> } } } }>(ISSUE_DISCUSSIONS, {
      fullPath: PROJECT,
      iid: String(issue.iid),
    });
    expect(result.errors).toBeUndefined();
    const rest = await harness.oracle.all<RestDiscussion>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/discussions`, admin);
    expect(result.data!.project.issue.discussions.nodes).toEqual(
      rest.map((discussion) => ({ id: gid('Discussion', discussion.id), individualNote: discussion.individual_note, notes: { nodes: discussion.notes.map((note) => ({ id: gid('Note', note.id), body: note.body, author: { username: note.author.username } })) } })),
    );
  });

  it('createNote: a comment, an internal one guests do not see, and a reply that makes a thread', async () => {
    const issue = anIssue();
    const comment = await send<{ createNote: { note: GqlNote; errors: string[] } }>(CREATE_NOTE, { input: { noteableId: issue.globalId, body: 'Looks like **the cache**' } });
    expect(comment.errors).toBeUndefined();
    expect(comment.data!.createNote).toMatchObject({ errors: [], note: { body: 'Looks like **the cache**', internal: false, author: { username: 'root' } } });
    expect(comment.data!.createNote.note.bodyHtml).toContain('<strong>the cache</strong>');
    // GET /issues/:id finds the issue, unless an earlier read served it to this credential.
    expect(restCalls(harness.simulator).filter((call) => !call.startsWith('GET /issues/'))[0]).toBe(`POST /projects/3/issues/${issue.iid}/notes`);

    const internal = await send<{ createNote: { note: GqlNote } }>(CREATE_NOTE, { input: { noteableId: issue.globalId, body: 'Only for the team', internal: true } });
    expect(internal.data!.createNote.note.internal).toBe(true);
    // GitLab's older name for it, still in its frontend.
    const confidential = await send<{ createNote: { note: GqlNote } }>(CREATE_NOTE, { input: { noteableId: issue.globalId, body: 'Also for the team', confidential: true } });
    expect(confidential.data!.createNote.note.internal).toBe(true);
    const seenByGuest = await harness.oracle.all<RestNote>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/notes`, guest);
    expect(seenByGuest.map((note) => gid('Note', note.id))).not.toContain(internal.data!.createNote.note.id);
    const guestView = await send<{ project: { issue: { notes: { nodes: GqlNote[] } } } }>(ISSUE_NOTES, { fullPath: PROJECT, iid: String(issue.iid), first: 100 }, guest);
    expect(guestView.data!.project.issue.notes.nodes.map((note) => note.id)).not.toContain(internal.data!.createNote.note.id);

    const discussions = await harness.oracle.all<RestDiscussion>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/discussions`, admin);
    const own = discussions.find((discussion) => gid('Note', discussion.notes[0]!.id) === comment.data!.createNote.note.id)!;
    const reply = await send<{ createNote: { note: GqlNote; errors: string[] } }>(CREATE_NOTE, { input: { noteableId: issue.globalId, body: 'Agreed', discussionId: gid('Discussion', own.id) } });
    expect(reply.data!.createNote).toMatchObject({ errors: [], note: { body: 'Agreed' } });
    const thread = await harness.oracle.get<RestDiscussion>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/discussions/${own.id}`, admin);
    expect(thread).toMatchObject({ individual_note: false, notes: [{ body: 'Looks like **the cache**' }, { body: 'Agreed' }] });
  });

  it('createNote: refuses an empty body, another class of noteable and a malformed discussion before any REST call; FORBIDDEN where REST finds issues by ID for administrators only', async () => {
    const issue = anIssue();
    for (const [input, argumentName] of [
      [{ noteableId: issue.globalId, body: '  ' }, 'body'],
      [{ noteableId: 'gid://gitlab/MergeRequest/1', body: 'x' }, 'noteableId'],
      [{ noteableId: issue.globalId, body: 'x', discussionId: 'gid://gitlab/Discussion/12' }, 'discussionId'],
    ] as const) {
      const result = await send(CREATE_NOTE, { input });
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName });
    }
    expect(restCalls(harness.simulator)).toEqual([]);
    const byDeveloper = await send(CREATE_NOTE, { input: { noteableId: issue.globalId, body: 'Hello' } }, developer);
    expect(byDeveloper.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('updateNote and destroyNote: the note under its issue, as REST then has it; the issue is required', async () => {
    const issue = anIssue();
    const created = await send<{ createNote: { note: GqlNote } }>(CREATE_NOTE, { input: { noteableId: issue.globalId, body: 'Draft' } });
    const noteId = created.data!.createNote.note.id;
    const numericId = Number(noteId.split('/').pop());

    expect(created.data!.createNote.note).toMatchObject({ lastEditedAt: null, url: `${new URL(harness.simulator.url).origin}/${PROJECT}/-/issues/${issue.iid}#note_${numericId}` });
    // The simulator's clock stands still: an edit a moment later shows by its own timestamp.
    const clock = harness.simulator.state.now;
    harness.simulator.state.now = new Date(clock.getTime() + 60_000);
    const updated = await send<{ updateNote: { note: GqlNote; errors: string[] } }>(UPDATE_NOTE, { input: { id: noteId, noteableId: issue.globalId, body: 'Final' } });
    harness.simulator.state.now = clock;
    expect(updated.data!.updateNote).toMatchObject({ errors: [], note: { id: noteId, body: 'Final' } });
    const rest = await harness.oracle.get<RestNote & { updated_at: string }>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/notes/${numericId}`, admin);
    expect(updated.data!.updateNote.note.lastEditedAt).toBe(rest.updated_at);
    const confidential = await send(UPDATE_NOTE, { input: { id: noteId, noteableId: issue.globalId, body: 'x', confidential: true } });
    expect(confidential.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'confidential' });
    expect((await harness.oracle.get<RestNote>(`/projects/${PROJECT_PATH}/issues/${issue.iid}/notes/${numericId}`, admin)).body).toBe('Final');

    harness.simulator.resetRequests();
    const withoutIssue = await send(UPDATE_NOTE, { input: { id: noteId, body: 'x' } });
    expect(withoutIssue.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'noteableId' });
    const wrongClass = await send(DESTROY_NOTE, { input: { id: 'gid://gitlab/Issue/1', noteableId: issue.globalId } });
    expect(wrongClass.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(restCalls(harness.simulator)).toEqual([]);

    const destroyed = await send<{ destroyNote: { note: { id: string; body: string }; errors: string[] } }>(DESTROY_NOTE, { input: { id: noteId, noteableId: issue.globalId } });
    expect(destroyed.data!.destroyNote).toEqual({ note: { id: noteId, body: 'Final' }, errors: [] });
    expect((await harness.oracle.call('GET', `/projects/${PROJECT_PATH}/issues/${issue.iid}/notes/${numericId}`, admin)).status).toBe(404);
    const again = await send(DESTROY_NOTE, { input: { id: noteId, noteableId: issue.globalId } });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND', restStatus: 404 });
  });

  it('says what the caller may do with each note by GitLab\'s note policy, reading the caller, the project and the issue once', async () => {
    const { state } = harness.simulator;
    const target = [...state.issues.values()].find((candidate) => candidate.projectId === 3 && !candidate.confidential && candidate.state === 'opened' && !candidate.discussionLocked)!;
    const byGuest = await harness.oracle.call<RestNote>('POST', `/projects/${PROJECT_PATH}/issues/${target.iid}/notes?body=${encodeURIComponent('From a guest')}`, guest);
    expect(byGuest.status).toBe(201);
    type Answer = { project: { issue: { notes: { nodes: Array<{ id: string; author: { username: string }; userPermissions: Record<string, boolean> }> } } } };
    const permissionsOf = async (token: string) => {
      harness.simulator.resetRequests();
      const result = await send<Answer>(NOTE_PERMISSIONS, { fullPath: PROJECT, iid: String(target.iid) }, token);
      expect(result.errors).toBeUndefined();
      return { nodes: result.data!.project.issue.notes.nodes, calls: restCalls(harness.simulator) };
    };
    const guestNote = gid('Note', byGuest.body.id);

    const asGuest = await permissionsOf(guest);
    for (const note of asGuest.nodes) {
      const own = note.id === guestNote;
      expect(note.userPermissions).toEqual({ adminNote: own, awardEmoji: true, createNote: true, readNote: true, repositionNote: own, resolveNote: false });
    }
    // The caller (GET /user) and the issue once for every note; the project's record, with the
    // caller's permissions, is the one the query read by path.
    expect(asGuest.calls.sort()).toEqual([`GET /projects/${PROJECT_PATH}`, `GET /projects/3/issues/${target.iid}`, `GET /projects/3/issues/${target.iid}/notes`, 'GET /user'].sort());
    const asMaintainer = await permissionsOf(DEMO_TOKENS.maintainer);
    expect(asMaintainer.nodes.every((note) => note.userPermissions['adminNote'])).toBe(true);

    // A locked discussion takes comments from Reporters and above only.
    target.discussionLocked = true;
    expect((await permissionsOf(guest)).nodes.every((note) => note.userPermissions['createNote'] === false)).toBe(true);
    expect((await permissionsOf(developer)).nodes.every((note) => note.userPermissions['createNote'] === true)).toBe(true);
    target.discussionLocked = false;
  });
});
