import { GraphQLError } from 'graphql';
import type { CiJobResolvers, CommitResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import type { CommitSchema, ProjectKey } from '../../datasources/commits.js';
import type { GatewayContext } from '../../server/context.js';
import { toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { commitRecord, type CommitRecord } from './record.js';

/** The commit's project, which every sub-resource path needs. */
function projectOf(commit: CommitRecord): ProjectKey {
  if (commit.project_ref === null) {
    throw new GraphQLError(`The project of commit ${commit.id} is not known, so its repository cannot be asked about it.`, { extensions: { code: 'NOT_FOUND' } });
  }
  return commit.project_ref;
}

/**
 * A field of the single-commit record (`stats`, `status`, `last_pipeline`): read from the record
 * at hand when it has it, otherwise from `GET .../commits/:sha`, fetched once per commit per request.
 */
function detailField<K extends keyof CommitSchema>(key: K) {
  return async (commit: CommitRecord, _args: unknown, { loaders }: GatewayContext): Promise<NonNullable<CommitSchema[K]> | null> => {
    if (Object.prototype.hasOwnProperty.call(commit, key)) return commit[key] ?? null;
    if (commit.project_ref === null) return null;
    const detail = await loaders.commit.load({ project: commit.project_ref, sha: commit.id });
    return detail[key] ?? null;
  };
}

export const Commit: CommitResolvers = {
  id: (commit) => toGlobalId('Commit', commit.id),
  // REST calls the full SHA `id`; GraphQL's `id` is the global ID.
  sha: (commit) => commit.id,
  trailers: (commit) => (commit.trailers ? Object.entries(commit.trailers).map(([key, value]) => ({ key, value })) : null),
  extendedTrailers: (commit) => (commit.extended_trailers ? Object.entries(commit.extended_trailers).map(([key, values]) => ({ key, values })) : null),
  stats: detailField('stats'),
  // Codegen types enum results as null (their REST values come from enum-values.ts); REST's string is the value.
  status: detailField('status') as unknown as CommitResolvers['status'],
  lastPipeline: detailField('last_pipeline'),
  parents(commit, _args, { loaders }) {
    const project = projectOf(commit);
    return Promise.all((commit.parent_ids ?? []).map(async (sha) => commitRecord(await loaders.commit.load({ project, sha }), project)));
  },
  sequence: (commit, { firstParent }, { api }) => api.commits.sequence(projectOf(commit), commit.id, firstParent ?? false),
  refs(commit, args, { api }) {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.refs(project, commit.id, args.type ?? 'all', page));
  },
  diffs(commit, args, { api }) {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.diff(project, commit.id, page));
  },
  comments(commit, args, { api }) {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.comments(project, commit.id, page));
  },
  discussions(commit, args, { api }) {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.discussions(project, commit.id, page));
  },
  statuses(commit, args, { api }) {
    const project = projectOf(commit);
    const filters = { ref: args.ref ?? undefined, stage: args.stage ?? undefined, name: args.name ?? undefined, all: args.all ?? undefined };
    // commit.id is the full SHA, which REST matches pipelines on.
    return restConnection(args, (page) => api.commitStatuses.all(project, commit.id, filters, page));
  },
  mergeRequests(commit, args, { api }) {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.mergeRequests(project, commit.id, page));
  },
  // An unsigned commit answers 404 "404 GPG Signature Not Found": no signature, not an error.
  signature: (commit, _args, { api }) => nullWhenNotFound(api.commits.signature(projectOf(commit), commit.id)),
};

/** A runner job's commit belongs to the job's project, so its sub-resources can be asked for. */
export const ciJobCommitFields: Pick<CiJobResolvers, 'commit'> = {
  commit: (job) => (job.commit ? commitRecord(job.commit, job.project?.id ?? null) : null),
};
