import type { CommitReferencesResolvers, ProjectResolvers, RepositoryResolvers, TreeResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall, type FieldArgs } from '../../cost/field-cost.js';
import { COMMIT_LISTED } from '../../cost/shapes.js';
import type { ProjectKey } from '../../datasources/commits.js';
import { everyPage } from '../../datasources/every-page.js';
import { MAX_PER_PAGE } from '../../datasources/pagination.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { commitRecord, type CommitReferencesRecord, type TreeRecord } from '../../records/commits.js';
import type { GatewayContext } from '../../server/context.js';
import { nullWhenNotFound } from '../lookups.js';
import { selectsField } from './selection.js';

/** The arguments of `Repository.tree` and `paginatedTree` that name a directory. */
export interface TreeArgs {
  path?: string | null;
  ref?: string | null;
  recursive?: boolean | null;
  refType?: 'heads' | 'tags' | null;
}

/** A directory as `Repository.tree` and `paginatedTree` name it. */
export function treeRecord(project: ProjectKey, { path, ref, recursive, refType }: TreeArgs): TreeRecord {
  return {
    project,
    ref: ref ?? undefined,
    refType: refType ?? undefined,
    restRef: qualifiedRef(ref ?? undefined, refType ?? undefined),
    path: (path ?? '').replace(/^\/+|\/+$/g, ''),
    recursive: recursive ?? false,
  };
}

/** GitLab's ExtractsRef qualify_ref: with a ref type, the full ref name (`refs/heads/main`). */
export function qualifiedRef(ref: string | undefined, refType: 'heads' | 'tags' | undefined): string | undefined {
  if (ref === undefined || refType === undefined) return ref;
  return ref.startsWith('refs/') ? ref : `refs/${refType}/${ref}`;
}

/** GitLab's `limit` of ref names: 1 to 100, checked before any call. */
function checkedLimit(limit: number, argumentName = 'limit'): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PER_PAGE) throw badUserInput(`\`${argumentName}\` must be between 1 and ${MAX_PER_PAGE}.`, argumentName);
  return limit;
}

/** Names of the branches or tags that contain the commit: the first page of REST's refs, `limit` long. */
async function containing(record: CommitReferencesRecord, type: 'branch' | 'tag', limit: number, { api }: GatewayContext): Promise<string[]> {
  const page = await api.commits.refs(record.project, record.sha, type, { page: 1, perPage: MAX_PER_PAGE });
  return page.items.filter((ref) => ref.type === type).map((ref) => ref.name).slice(0, limit);
}

/** Most REST pages of branches or tags read to find those at a commit (their fields' costs count them). */
export const TIP_PAGES = 10;

const COMMIT_REFS = 'GET /projects/:id/repository/commits/:sha/refs';
const BRANCHES = 'GET /projects/:id/repository/branches';
const TAGS = 'GET /projects/:id/repository/tags';

/** GET .../refs, and with excludeTipped every page of branches or tags (at most TIP_PAGES). */
const containingCalls = (args: FieldArgs): number => 1 + (args['excludeTipped'] === true ? TIP_PAGES : 0);

async function tippingBranches(record: CommitReferencesRecord, context: GatewayContext): Promise<string[]> {
  // Branches and tags have no filter by tip: their pages are read, up to TIP_PAGES of them.
  const branches = await everyPage((page) => context.api.commits.branches(record.project, undefined, page), { maxPages: TIP_PAGES });
  return branches.filter((branch) => branch.commit?.id === record.sha).map((branch) => branch.name);
}

async function tippingTags(record: CommitReferencesRecord, context: GatewayContext): Promise<string[]> {
  const tags = await everyPage((page) => context.api.commits.tags(record.project, page), { maxPages: TIP_PAGES });
  return tags.filter((tag) => tag.commit?.id === record.sha).map((tag) => tag.name);
}

export const CommitReferences: CommitReferencesResolvers = {
  containingBranches: declared({ calls: containingCalls, rest: [COMMIT_REFS, BRANCHES] }, async (record, { excludeTipped, limit }, context) => {
    const max = checkedLimit(limit);
    const [names, tips] = await Promise.all([containing(record, 'branch', MAX_PER_PAGE, context), excludeTipped ? tippingBranches(record, context) : []]);
    const tipped = new Set(tips);
    return { names: names.filter((name) => !tipped.has(name)).slice(0, max) };
  }),
  containingTags: declared({ calls: containingCalls, rest: [COMMIT_REFS, TAGS] }, async (record, { excludeTipped, limit }, context) => {
    const max = checkedLimit(limit);
    const [names, tips] = await Promise.all([containing(record, 'tag', MAX_PER_PAGE, context), excludeTipped ? tippingTags(record, context) : []]);
    const tipped = new Set(tips);
    return { names: names.filter((name) => !tipped.has(name)).slice(0, max) };
  }),
  tippingBranches: declared({ calls: TIP_PAGES, rest: [BRANCHES] }, async (record, { limit }, context) => {
    const max = checkedLimit(limit);
    return { names: (await tippingBranches(record, context)).slice(0, max) };
  }),
  tippingTags: declared({ calls: TIP_PAGES, rest: [TAGS] }, async (record, { limit }, context) => {
    const max = checkedLimit(limit);
    return { names: (await tippingTags(record, context)).slice(0, max) };
  }),
};

export const Tree: TreeResolvers = {
  // The newest commit that touched the path: REST's commit list, one commit long (GET .../commits?path=&per_page=1).
  lastCommit: declared({ ...oneCall(COMMIT_LISTED), rest: ['GET /projects/:id/repository/commits'] }, async (tree, _args, { api }) => {
    const page = await nullWhenNotFound(api.commits.all(tree.project, { refName: tree.restRef, path: tree.path === '' ? undefined : tree.path }, { page: 1, perPage: 1 }));
    const commit = page?.items[0];
    return commit ? commitRecord(commit, tree.project) : null;
  }),
};

/**
 * GitLab's `searchPattern` as REST's branch search: a `*` at either end is "any text"; without one,
 * the end is anchored (`^`, `$`). REST has no wildcard within a name.
 */
export function branchSearch(pattern: string): string | undefined {
  const leading = pattern.startsWith('*');
  const trailing = pattern.endsWith('*') && pattern.length > 1;
  const literal = pattern.slice(leading ? 1 : 0, trailing ? -1 : undefined);
  if (literal.includes('*')) throw badUserInput('`searchPattern` may have `*` only at its start and end: REST searches branch names for literal text.', 'searchPattern');
  if (literal === '') return undefined;
  return `${leading ? '' : '^'}${literal}${trailing ? '' : '$'}`;
}

export const repositoryReferenceFields: Pick<RepositoryResolvers, 'tree' | 'branchNames'> = {
  // No call: names the directory (it reads the selection only, to share one listing among its connections).
  tree: declared({}, (repository, args, _context, info) => ({ ...treeRecord(repository.project, args), flatPaths: selectsField(info, 'flatPath') })),
  // The branch list's pages of 100 that hold [offset, offset + limit): at most two.
  branchNames: declared({ calls: 2, rest: [BRANCHES] }, async (repository, { searchPattern, offset, limit }, { api }) => {
    const max = checkedLimit(limit);
    if (!Number.isInteger(offset) || offset < 0) throw badUserInput('`offset` must not be negative.', 'offset');
    const search = branchSearch(searchPattern);
    // The pages of 100 that hold [offset, offset + limit): at most two.
    const first = Math.floor(offset / MAX_PER_PAGE) + 1;
    const last = Math.floor((offset + max - 1) / MAX_PER_PAGE) + 1;
    const pages = await Promise.all(
      Array.from({ length: last - first + 1 }, (_, index) => api.commits.branches(repository.project, search, { page: first + index, perPage: MAX_PER_PAGE })),
    );
    const names = pages.flatMap((page) => page.items.map((branch) => branch.name));
    const start = offset - (first - 1) * MAX_PER_PAGE;
    return names.slice(start, start + max);
  }),
};

export const projectCommitReferenceFields: Pick<ProjectResolvers, 'commitReferences'> = {
  // The commit look-up that tells an unknown SHA: the commit is looked up first, so an unknown
  // SHA answers null, as GitLab does.
  commitReferences: declared({ ...oneCall(), rest: ['GET /projects/:id/repository/commits/:sha'] }, async (project, { commitSha }, { loaders }) => {
    if (!/^[0-9a-fA-F]{7,64}$/.test(commitSha)) throw badUserInput('`commitSha` must be a commit SHA.', 'commitSha');
    const commit = await nullWhenNotFound(loaders.commit.load({ project: project.id, sha: commitSha }));
    return commit ? { project: project.id, sha: commit.id } : null;
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { CommitReferences, Tree };
