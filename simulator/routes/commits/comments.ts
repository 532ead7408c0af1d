// Comments on commits and their discussions (rest-v4-api.md "Commits", "Comment placement rule").
// A comment names a line with `path`, `line` and `line_type`; it is placed there only when that
// line is a changed line of the commit's diff with that type. Otherwise it is added to the commit
// as a whole, and path, line and line type come back null.
import { createHash } from 'node:crypto';
import type { CommitNote } from '../../data/commits.js';
import type { SimulatorState } from '../../data/state.js';
import { FIRST_COMMIT_NOTE_ID } from '../../data/seed/commits.js';
import { commentEntity, discussionEntity } from '../../entities/commits.js';
import { grapeError } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { created } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { findDiffLine, lineCode } from '../../repository/commit-diff.js';
import { existingCommit, nextIdIn, readableRepository } from './access.js';

/** The id of a commit discussion: one per diff line (its line code), one per comment on the whole commit. */
function discussionId(sha: string, key: string): string {
  return createHash('sha1').update(`${sha}:${key}`).digest('hex');
}

function notesOf(state: SimulatorState, projectId: number, sha: string): CommitNote[] {
  return [...state.commitNotes.values()]
    .filter((note) => note.projectId === projectId && note.sha === sha)
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id));
}

/** The notes on one diff line form one discussion; every other comment is a discussion of its own. */
function discussionsOf(notes: readonly CommitNote[]): Array<{ id: string; notes: CommitNote[] }> {
  const byKey = new Map<string, CommitNote[]>();
  for (const note of notes) {
    const key = note.lineCode ?? `note-${note.id}`;
    const group = byKey.get(key);
    if (group) group.push(note);
    else byKey.set(key, [note]);
  }
  return [...byKey].map(([key, grouped]) => ({ id: discussionId(grouped[0]!.sha, key), notes: grouped }));
}

export function registerCommitCommentRoutes(router: Router): void {
  router.get('/projects/:id/repository/commits/:sha/comments', { auth: 'optional', paginated: true, params: { id: p.string().required(), sha: p.string().required() } }, (ctx) => {
    const { project, repository } = readableRepository(ctx, ctx.params.id);
    const commit = existingCommit(repository, ctx.params.sha);
    return paginate(ctx, notesOf(ctx.state, project.id, commit.sha), (note) => commentEntity(ctx, note));
  });

  router.post(
    '/projects/:id/repository/commits/:sha/comments',
    {
      auth: 'required',
      params: {
        id: p.string().required(),
        sha: p.string().required(),
        note: p.string().required(),
        path: p.string(),
        line: p.integer(),
        line_type: p.string().values(['new', 'old']),
      },
    },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      const commit = existingCommit(repository, ctx.params.sha);
      const { path, line } = ctx.params;
      // Grape's `given :path do requires :line`.
      if (path !== undefined && line === undefined) throw grapeError(400, 'line is missing');
      const lineType = ctx.params.line_type === 'old' ? 'old' : 'new';
      const target = path !== undefined && line !== undefined ? findDiffLine(repository, commit, path, line, lineType) : undefined;
      const id = nextIdIn(ctx.state.commitNotes, FIRST_COMMIT_NOTE_ID);
      const note: CommitNote = {
        id,
        projectId: project.id,
        sha: commit.sha,
        authorId: ctx.user!.id,
        note: ctx.params.note,
        createdAt: ctx.state.now.toISOString(),
        path: target ? path! : null,
        line: target ? line! : null,
        lineType: target ? lineType : null,
        lineCode: target ? lineCode(path!, target) : null,
      };
      ctx.state.commitNotes.set(id, note);
      return created(commentEntity(ctx, note));
    },
  );

  router.get('/projects/:id/repository/commits/:sha/discussions', { auth: 'optional', paginated: true, params: { id: p.string().required(), sha: p.string().required() } }, (ctx) => {
    const { project, repository } = readableRepository(ctx, ctx.params.id);
    const commit = existingCommit(repository, ctx.params.sha);
    return paginate(ctx, discussionsOf(notesOf(ctx.state, project.id, commit.sha)), (discussion) => discussionEntity(ctx, discussion.id, discussion.notes));
  });
}
