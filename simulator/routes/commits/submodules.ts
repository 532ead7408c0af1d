// `PUT /projects/:id/repository/submodules/:submodule` (rest-v4-api.md "Commits"; GitLab's
// Submodules::UpdateService): moves the submodule's gitlink on a branch and commits it.
import { AccessLevel } from '../../data/model.js';
import { projectAccessLevel } from '../../data/access.js';
import { commitDetail } from '../../entities/commits.js';
import { forbidden, messageError } from '../../http/errors.js';
import { p } from '../../http/params.js';
import { ok } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { ChangeRefused, submoduleTree } from '../../repository/changes.js';
import { canPushToBranch, personOf, readableRepository } from './access.js';

export function registerSubmoduleRoutes(router: Router): void {
  router.put(
    '/projects/:id/repository/submodules/:submodule',
    {
      auth: 'required',
      params: {
        id: p.string().required(),
        submodule: p.string().required(),
        branch: p.string().required(),
        commit_sha: p.string().required(),
        commit_message: p.string(),
      },
    },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      const { submodule, branch, commit_sha: commitSha } = ctx.params;
      // `authorize! :push_code`: Developer and above.
      if (!ctx.user!.isAdmin && projectAccessLevel(ctx.state, ctx.user, project) < AccessLevel.DEVELOPER) throw forbidden();
      // Commits::CreateService's own checks answer 400, as every refusal of the service does.
      const refuse = (message: string) => messageError(400, message);
      if (!canPushToBranch(ctx.state, ctx.user, project, branch)) throw refuse('You are not allowed to push into this branch');
      if (repository.isEmpty()) throw refuse('The repository is empty');
      const head = repository.branchHead(branch);
      if (!head) throw refuse('You can only create or edit files when you are on a branch');
      if (!/^[0-9a-f]{40}$/.test(commitSha)) throw refuse('Invalid parameters');
      let tree;
      try {
        tree = submoduleTree(head, submodule, commitSha);
      } catch (error) {
        if (error instanceof ChangeRefused) throw refuse(error.message);
        throw error;
      }
      const time = repository.nextCommitTime(ctx.state.now);
      const who = personOf(ctx.user!, time);
      const commit = repository.writeCommit({
        tree,
        parents: [head.sha],
        author: who,
        committer: who,
        message: ctx.params.commit_message?.trim() ? ctx.params.commit_message : `Update submodule ${submodule} with oid ${commitSha}`,
      });
      repository.branches.set(branch, commit.sha);
      return ok(commitDetail(ctx, project, repository, commit, { stats: false }));
    },
  );
}
