// The branch and tag lists of GitLab's REST API (`GET /projects/:id/repository/branches` and
// `.../tags`): what GitLab's commit page needs to tell which refs a commit is the tip of, and what
// its branch pickers search. Search follows GitLab's finders: case-insensitive, `^text` for names
// that start with it and `text$` for names that end with it.
import type { Project } from '../../data/model.js';
import { commitEntity } from '../../entities/commits.js';
import { notFound } from '../../http/errors.js';
import { paginate } from '../../http/pagination.js';
import { p } from '../../http/params.js';
import type { RequestContext, Router } from '../../http/router.js';
import type { Repository, Tag } from '../../repository/repository.js';
import { canPushToBranch, readableRepository } from './access.js';

/** BranchesFinder / TagsFinder `search`: `^` anchors at the start, `$` at the end, no case. */
export function matchesRefSearch(name: string, search: string | undefined): boolean {
  if (search === undefined || search === '') return true;
  const lower = name.toLowerCase();
  const anchoredStart = search.startsWith('^');
  const anchoredEnd = search.endsWith('$') && search.length > (anchoredStart ? 1 : 0);
  const text = search.slice(anchoredStart ? 1 : 0, anchoredEnd ? -1 : undefined).toLowerCase();
  if (anchoredStart && anchoredEnd) return lower === text;
  if (anchoredStart) return lower.startsWith(text);
  if (anchoredEnd) return lower.endsWith(text);
  return lower.includes(text);
}

/** A branch as REST answers it, `can_push` for the caller; 404 "Branch Not Found" for none of that name. */
export function branchRecord(ctx: RequestContext<unknown>, project: Project, repository: Repository, name: string) {
  const head = repository.branchHead(name);
  if (!head) throw notFound('Branch');
  const isDefault = name === project.defaultBranch;
  return {
    name,
    commit: commitEntity(ctx, project, head),
    merged: !isDefault && repository.isAncestor(head.sha, repository.branches.get(project.defaultBranch) ?? ''),
    protected: isDefault,
    developers_can_push: false,
    developers_can_merge: false,
    can_push: canPushToBranch(ctx.state, ctx.user, project, name),
    default: isDefault,
    web_url: `${ctx.origin}/${ctx.state.projectFullPath(project)}/-/tree/${name}`,
  };
}

function tagRecord(ctx: RequestContext<unknown>, project: Project, repository: Repository, tag: Tag) {
  const commit = repository.commits.get(tag.target);
  return {
    name: tag.name,
    message: tag.message ?? '',
    target: tag.target,
    commit: commit ? commitEntity(ctx, project, commit) : null,
    release: null,
    protected: false,
  };
}

export function registerBranchAndTagRoutes(router: Router): void {
  router.get(
    '/projects/:id/repository/branches',
    { auth: 'optional', paginated: true, params: { id: p.string().required(), search: p.string() } },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      // GitLab lists branches in name order.
      const names = [...repository.branches.keys()].filter((name) => matchesRefSearch(name, ctx.params.search)).sort();
      return paginate(ctx, names, (name) => branchRecord(ctx, project, repository, name));
    },
  );

  router.get(
    '/projects/:id/repository/tags',
    {
      auth: 'optional',
      paginated: true,
      params: {
        id: p.string().required(),
        search: p.string(),
        order_by: p.string().values(['name', 'updated', 'version']).default('updated'),
        sort: p.string().values(['asc', 'desc']).default('desc'),
      },
    },
    (ctx) => {
      const { project, repository } = readableRepository(ctx, ctx.params.id);
      const tags = [...repository.tags.values()].filter((tag) => matchesRefSearch(tag.name, ctx.params.search));
      const committed = (tag: Tag) => repository.commits.get(tag.target)?.committer.time ?? 0;
      tags.sort((a, b) => (ctx.params.order_by === 'updated' ? committed(a) - committed(b) || a.name.localeCompare(b.name) : a.name.localeCompare(b.name, undefined, { numeric: ctx.params.order_by === 'version' })));
      if (ctx.params.sort === 'desc') tags.reverse();
      return paginate(ctx, tags, (tag) => tagRecord(ctx, project, repository, tag));
    },
  );
}
