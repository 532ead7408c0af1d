// The commit reads of rest-v4-api.md "Commits": the list (a `git log` with every filter, never a
// total: rest-conventions §3), one commit, its refs, diff, sequence, signature and merge requests.
import type { MergeRequest } from '../../data/model.js';
import type { SimulatorState } from '../../data/state.js';
import { commitDetail, commitEntity, commitWithStats, diffEntities, jsonWithBigIntegers, signatureEntity } from '../../entities/commits.js';
import { mergeRequestBasic } from '../../entities/merge-requests.js';
import { forbidden, grapeError, messageError } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import { ok } from '../../http/response.js';
import type { Router } from '../../http/router.js';
import { countCommits, log } from '../../repository/log.js';
import type { GitCommit, Repository } from '../../repository/repository.js';
import { existingCommit, readableRepository } from './access.js';

/** `since` and `until` are Grape DateTimes: anything Date.parse reads, else "<name> is invalid". */
function seconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw grapeError(400, `${name} is invalid`);
  return Math.floor(time / 1000);
}

/** Branches, then tags, each in name order (Gitlab::Repositories::ContainingCommitFinder). */
function refsContaining(repository: Repository, sha: string, type: string) {
  const branches = type === 'tag' ? [] : repository.branchesContaining(sha).map((name) => ({ type: 'branch', name }));
  const tags = type === 'branch' ? [] : repository.tagsContaining(sha).map((name) => ({ type: 'tag', name }));
  return [...branches, ...tags];
}

/** The commits a merge request brings: what its head reaches and its target did not (at merge time). */
function mergeRequestCommits(repository: Repository, mergeRequest: MergeRequest): Set<string> {
  const head = repository.commits.get(mergeRequest.sha);
  if (!head) return new Set();
  const merge = mergeRequest.mergeCommitSha ? repository.commits.get(mergeRequest.mergeCommitSha) : undefined;
  const target = merge?.parents[0] ?? repository.branches.get(mergeRequest.targetBranch);
  const excluded = target ? repository.ancestors([target]) : new Set<string>();
  return new Set([...repository.ancestors([head.sha])].filter((sha) => !excluded.has(sha)));
}

/** MergeRequestsFinder with `commit_sha`: the project's merge requests that contain the commit, newest first. */
function mergeRequestsOf(state: SimulatorState, projectId: number, repository: Repository, commit: GitCommit, mergeState: string | undefined): MergeRequest[] {
  return [...state.mergeRequests.values()]
    .filter((mr) => mr.projectId === projectId && (mergeState === undefined || mr.state === mergeState))
    .filter((mr) => mr.mergeCommitSha === commit.sha || mergeRequestCommits(repository, mr).has(commit.sha))
    .sort((a, b) => b.id - a.id);
}

export function registerCommitReadRoutes(router: Router): void {
  router.get(
    '/projects/:id/repository/commits',
    {
      auth: 'optional',
      paginated: true,
      params: {
        id: p.string().required(),
        ref_name: p.string(),
        since: p.string(),
        until: p.string(),
        path: p.string(),
        author: p.string(),
        all: p.boolean(),
        with_stats: p.boolean(),
        first_parent: p.boolean(),
        order: p.string().values(['default', 'topo']).default('default'),
        trailers: p.boolean().default(false),
      },
    },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      const commits = log(repository, {
        refName: ctx.params.ref_name?.trim() || undefined,
        all: ctx.params.all,
        since: seconds(ctx.params.since, 'since'),
        until: seconds(ctx.params.until, 'until'),
        path: ctx.params.path,
        author: ctx.params.author,
        firstParent: ctx.params.first_parent,
        order: ctx.params.order === 'topo' ? 'topo' : 'default',
      });
      const options = { trailers: ctx.params.trailers };
      const present = ctx.params.with_stats
        ? (commit: GitCommit) => commitWithStats(ctx, project, repository, commit, options)
        : (commit: GitCommit) => commitEntity(ctx, project, commit, options);
      // rest-conventions §3: the Commits API never sends X-Total or X-Total-Pages.
      return paginate(ctx, commits, present, { counts: false });
    },
  );

  router.get('/projects/:id/repository/commits/:sha', { auth: 'optional', params: { id: p.string().required(), sha: p.string().required(), stats: p.boolean().default(true) } }, (ctx) => {
    const { project, repository } = readableRepository(ctx, ctx.params.id);
    return ok(commitDetail(ctx, project, repository, existingCommit(repository, ctx.params.sha), { stats: ctx.params.stats }));
  });

  router.get(
    '/projects/:id/repository/commits/:sha/refs',
    { auth: 'optional', paginated: true, params: { id: p.string().required(), sha: p.string().required(), type: p.string().values(['branch', 'tag', 'all']).default('all') } },
    (ctx) => {
      const { repository } = readableRepository(ctx, ctx.params.id);
      const commit = existingCommit(repository, ctx.params.sha);
      // GitLab asks Gitaly for just enough refs and so sends no totals here either.
      return paginate(ctx, refsContaining(repository, commit.sha, ctx.params.type), (ref) => ref, { counts: false });
    },
  );

  router.get('/projects/:id/repository/commits/:sha/diff', { auth: 'optional', paginated: true, params: { id: p.string().required(), sha: p.string().required() } }, (ctx) => {
    const { repository } = readableRepository(ctx, ctx.params.id);
    return paginate(ctx, diffEntities(repository, existingCommit(repository, ctx.params.sha)), (entry) => entry);
  });

  router.get(
    '/projects/:id/repository/commits/:sha/sequence',
    { auth: 'optional', params: { id: p.string().required(), sha: p.string().required(), first_parent: p.boolean().default(false) } },
    (ctx) => {
      const { repository } = readableRepository(ctx, ctx.params.id);
      const commit = existingCommit(repository, ctx.params.sha);
      return ok({ count: countCommits(repository, commit.sha, ctx.params.first_parent) });
    },
  );

  router.get('/projects/:id/repository/commits/:sha/signature', { auth: 'optional', params: { id: p.string().required(), sha: p.string().required() } }, (ctx) => {
    const { repository } = readableRepository(ctx, ctx.params.id);
    const commit = existingCommit(repository, ctx.params.sha);
    // rest-v4-api.md "Errors": an unsigned commit answers 404 with this very message.
    if (!commit.signature) throw messageError(404, '404 GPG Signature Not Found');
    return { status: 200, text: jsonWithBigIntegers(signatureEntity(commit.signature)) };
  });

  router.get(
    '/projects/:id/repository/commits/:sha/merge_requests',
    { auth: 'optional', paginated: true, params: { id: p.string().required(), sha: p.string().required(), state: p.string() } },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      if (!project.mergeRequestsEnabled) throw forbidden();
      const commit = existingCommit(repository, ctx.params.sha);
      const mergeRequests = mergeRequestsOf(ctx.state, project.id, repository, commit, ctx.params.state);
      return paginate(ctx, mergeRequests, (mr) => mergeRequestBasic(ctx, mr));
    },
  );
}
