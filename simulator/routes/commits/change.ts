// Cherry-pick and revert (rest-v4-api.md "Commits" and "Errors"): the commit's change is merged
// onto the branch head; a conflict answers `error_code: conflict`, a change already there
// `error_code: empty`, both 400 with `message`. A dry run answers `{"dry_run": "success"}` with 200
// and writes nothing; a failed dry run answers the same body as a real failure.
import { commitEntity } from '../../entities/commits.js';
import { ApiError, notFound } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { created, ok } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { cherryPickTree, revertTree, type ChangeOutcome } from '../../repository/changes.js';
import type { GitCommit, Repository } from '../../repository/repository.js';
import { existingCommit, personOf, readableRepository, requirePush } from './access.js';

type Operation = 'cherry_pick' | 'revert';

/** The failure message of the REST documentation's examples (fixtures *-error-*.json). */
function failureMessage(operation: Operation): string {
  return operation === 'cherry_pick'
    ? 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.'
    : 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.';
}

function outcome(operation: Operation, repository: Repository, commit: GitCommit, head: GitCommit): ChangeOutcome {
  return operation === 'cherry_pick' ? cherryPickTree(repository, commit, head) : revertTree(repository, commit, head);
}

/** `Commit#cherry_pick_message` and `#revert_message`. */
function messageFor(operation: Operation, commit: GitCommit, custom: string | undefined): string {
  if (operation === 'cherry_pick') return custom ?? `${commit.message.trimEnd()}\n\n(cherry picked from commit ${commit.sha})`;
  const title = commit.message.split('\n', 1)[0]!.trim();
  return `Revert "${title}"\n\nThis reverts commit ${commit.sha}`;
}

function register(router: Router, operation: Operation): void {
  router.post(
    `/projects/:id/repository/commits/:sha/${operation}`,
    {
      auth: 'required',
      params: {
        id: p.string().required(),
        sha: p.string().required(),
        branch: p.string().required(),
        dry_run: p.boolean().default(false),
        message: p.string(),
      },
    },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      requirePush(ctx, project, ctx.params.branch);
      const commit = existingCommit(repository, ctx.params.sha);
      const head = repository.branchHead(ctx.params.branch);
      if (!head) throw notFound('Branch');
      const result = outcome(operation, repository, commit, head);
      if ('failure' in result) {
        throw new ApiError(400, { json: { message: failureMessage(operation), error_code: result.failure, ...(ctx.params.dry_run ? { dry_run: 'error' } : {}) } });
      }
      if (ctx.params.dry_run) return ok({ dry_run: 'success' });
      const time = repository.nextCommitTime(ctx.state.now);
      const user = ctx.user!;
      const committer = personOf(user, time);
      const picked = repository.writeCommit({
        tree: result.tree,
        parents: [head.sha],
        // A cherry-pick keeps the original author; a revert is the caller's own change.
        author: operation === 'cherry_pick' ? commit.author : committer,
        committer,
        message: messageFor(operation, commit, operation === 'cherry_pick' ? ctx.params.message : undefined),
      });
      repository.branches.set(ctx.params.branch, picked.sha);
      return created(commitEntity(ctx, project, picked));
    },
  );
}

export function registerCommitChangeRoutes(router: Router): void {
  register(router, 'cherry_pick');
  register(router, 'revert');
}
