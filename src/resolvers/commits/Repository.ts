import type { GraphQLResolveInfo } from 'graphql';
import type { ProjectResolvers, RepositoryResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { oneCall, restList } from '../../cost/field-cost.js';
import { COMMIT_LISTED, COMMIT_LISTED_WITH_STATS, COMMIT_LOADED } from '../../cost/shapes.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { commitRecord } from '../../records/commits.js';
import { nullWhenNotFound } from '../lookups.js';
import { connectionNodeFields } from '../projects/simple-record.js';
import { paginatedTreeFields } from './paginated-tree.js';
import { projectCommitReferenceFields, repositoryReferenceFields } from './references.js';
import { repositoryBlobsFields } from './repository-blobs.js';

/** A text argument that, when given, must say something. */
function nonBlank(value: string | null | undefined, argumentName: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (!value.trim()) throw badUserInput(`\`${argumentName}\` must not be blank; leave it out instead.`, argumentName);
  return value;
}

/**
 * Whether to ask the list for `stats`: when the query selects them on the commits (or when the
 * selection cannot be read cheaply, because of fragments), so that stats cost no call per commit.
 */
function listWithStats(requested: boolean | null | undefined, info: GraphQLResolveInfo): boolean | undefined {
  if (requested !== null && requested !== undefined) return requested;
  const fields = connectionNodeFields(info);
  return fields === null || fields.includes('stats') ? true : undefined;
}

export const Repository: RepositoryResolvers = {
  ...repositoryReferenceFields,
  ...paginatedTreeFields,
  ...repositoryBlobsFields,
  // Asked `with_stats` whenever the selection wants them, unless the query says withStats: false.
  commits: declared(
    {
      ...restList((args) => (args['withStats'] === false ? COMMIT_LISTED : COMMIT_LISTED_WITH_STATS)),
      rest: ['GET /projects/:id/repository/commits'],
    },
    (repository, args, { api }, info) => {
      const filters = {
        refName: nonBlank(args.refName, 'refName'),
        since: args.since ?? undefined,
        until: args.until ?? undefined,
        path: nonBlank(args.path, 'path'),
        author: nonBlank(args.author, 'author'),
        all: args.all ?? undefined,
        withStats: listWithStats(args.withStats, info),
        firstParent: args.firstParent ?? undefined,
        order: args.order ?? undefined,
        trailers: args.trailers ?? undefined,
      };
      if (filters.since && filters.until && Date.parse(filters.since) > Date.parse(filters.until)) {
        throw badUserInput('`since` must not be after `until`.', 'since');
      }
      // rest-conventions §3: no X-Total for commits, so `count` stays null; restConnection pages
      // both ways with cursors and refuses `last` without `before` past 100 commits.
      return restConnection(args, async (page) => {
        const result = await api.commits.all(repository.project, filters, page);
        return { ...result, items: result.items.map((commit) => commitRecord(commit, repository.project)) };
      });
    },
  ),
  // REST's project record says whether the repository has commits (`empty_repo`); shared with
  // every other read of it.
  empty: declared({ ...oneCall(), rest: ['GET /projects/:id'] }, async (repository, _args, { loaders }) => {
    return (await loaders.project.load(repository.project)).empty_repo === true;
  }),
  commit: declared({ ...oneCall(COMMIT_LOADED), rest: ['GET /projects/:id/repository/commits/:sha'] }, async (repository, { ref }, { loaders }) => {
    const name = nonBlank(ref, 'ref');
    if (name === undefined) return null;
    const commit = await nullWhenNotFound(loaders.commit.load({ project: repository.project, sha: name }));
    return commit ? commitRecord(commit, repository.project) : null;
  }),
};

/** `Project.repository` and `Project.commitReferences`, spread into the Project resolvers. */
const projectRepositoryFields: Pick<ProjectResolvers, 'repository' | 'commitReferences'> = {
  repository: (project) => ({ project: project.id }),
  ...projectCommitReferenceFields,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Project: projectRepositoryFields, Repository };
