import { createHash } from 'node:crypto';
import { GraphQLError } from 'graphql';
import type { CiJobResolvers, CommitResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import { embedded, oneCall, restList, UNBOUNDED_ARRAY_ITEMS } from '../../cost/field-cost.js';
import { COMMIT_LOADED, COMMIT_OF_JOB, MERGE_REQUEST_LISTED, PIPELINE_OF_JOB, USER_LOADED } from '../../cost/shapes.js';
import type { CommitSchema, ProjectKey } from '../../datasources/commits.js';
import { declared } from '../../fields/declaration.js';
import { commitRecord, type CommitRecord } from '../../records/commits.js';
import type { GatewayContext } from '../../server/context.js';
import { toGlobalId } from '../global-id.js';
import { renderMarkdown } from '../projects/markdown.js';
import { pathOfWebUrl } from '../web-path.js';
import { nullWhenNotFound } from '../lookups.js';

/** The commit's project, which every sub-resource path needs. */
function projectOf(commit: CommitRecord): ProjectKey {
  if (commit.project_ref === null) {
    throw new GraphQLError(`The project of commit ${commit.id} is not known, so its repository cannot be asked about it.`, { extensions: { code: 'NOT_FOUND' } });
  }
  return commit.project_ref;
}

/** The commit loader's read: the single-commit record, with what list records lack. */
const COMMIT_RECORD = 'GET /projects/:id/repository/commits/:sha';
/** The project loader's read. */
const PROJECT_RECORD = 'GET /projects/:id';

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

/** GitLab's Commit::MAX_TITLE_LENGTH... a first line this long is cut in the title. */
const LONG_TITLE = 100;

/**
 * GitLab's Commit#description: the whole message when the first line is too long to be the whole
 * title, otherwise what follows the first line (one trailing newline dropped), or null.
 */
export function commitDescription(message: string | null | undefined): string | null {
  if (message === null || message === undefined) return null;
  const newline = message.indexOf('\n');
  const firstLine = newline === -1 ? message : message.slice(0, newline);
  if (firstLine.length >= LONG_TITLE) return message;
  if (newline === -1) return null;
  return message.slice(newline + 1).replace(/\r?\n$/, '');
}

/** GitLab's GravatarService for commit authors: MD5 of the trimmed, lower-case address, 40 px at scale 2. */
export function gravatarUrl(email: string | null | undefined): string | null {
  if (!email?.trim()) return null;
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`;
}

/**
 * The commit page's URL: REST's `web_url`, or, for a runner job's commit (whose record has none),
 * the project's page URL and `/-/commit/<sha>`, as GitLab builds it.
 */
async function commitWebUrl(commit: CommitRecord, { loaders }: GatewayContext): Promise<string> {
  if (commit.web_url) return commit.web_url;
  const project = await loaders.project.load(projectOf(commit));
  return `${project.web_url ?? ''}/-/commit/${commit.id}`;
}

/**
 * The full path markdown references resolve in (REST's Markdown API takes no numeric id): the
 * commit's own when it came by path, otherwise its project's, through the project loader.
 */
async function markdownProject(commit: CommitRecord, { loaders }: GatewayContext): Promise<string | undefined> {
  if (commit.project_ref === null) return undefined;
  if (typeof commit.project_ref === 'string') return commit.project_ref;
  return (await loaders.project.load(commit.project_ref)).path_with_namespace;
}

export const Commit: CommitResolvers = {
  shortId: (commit) => commit.short_id ?? commit.id.slice(0, 11),
  // Runner jobs' commits lack `web_url`: their project's page URL, through the project loader.
  webUrl: declared({ calls: 1, unlessParentHas: 'web_url', rest: [PROJECT_RECORD] }, (commit, _args, context) => commitWebUrl(commit, context)),
  webPath: declared(
    { calls: 1, unlessParentHas: 'web_url', rest: [PROJECT_RECORD] },
    async (commit, _args, context) => pathOfWebUrl(await commitWebUrl(commit, context)) ?? '',
  ),
  description: (commit) => commitDescription(commit.message),
  // POST /markdown, once per distinct text, and the project's full path (REST's Markdown API takes
  // no id) through the project loader when the commit came by the project's id.
  titleHtml: declared({ calls: 2, rest: ['POST /markdown', PROJECT_RECORD] }, async (commit, _args, context) =>
    renderMarkdown(context, commit.title, context.credential ? await markdownProject(commit, context) : undefined),
  ),
  descriptionHtml: declared({ calls: 2, rest: ['POST /markdown', PROJECT_RECORD] }, async (commit, _args, context) =>
    renderMarkdown(context, commitDescription(commit.message), context.credential ? await markdownProject(commit, context) : undefined),
  ),
  authorGravatar: (commit) => gravatarUrl(commit.author_email),
  // GET /users?search=<email>, once per distinct address in a request. REST refuses anonymous
  // callers a user search, so they get null without a call.
  author: declared({ ...oneCall(USER_LOADED), rest: ['GET /users'] }, (commit, _args, { credential, loaders }) =>
    commit.author_email?.trim() && credential ? loaders.userByEmail.load(commit.author_email) : null,
  ),
  id: (commit) => toGlobalId('Commit', commit.id),
  // REST calls the full SHA `id`; GraphQL's `id` is the global ID.
  sha: (commit) => commit.id,
  trailers: (commit) => (commit.trailers ? Object.entries(commit.trailers).map(([key, value]) => ({ key, value })) : null),
  extendedTrailers: (commit) => (commit.extended_trailers ? Object.entries(commit.extended_trailers).map(([key, values]) => ({ key, values })) : null),
  // The single-commit record's fields, through the commit loader.
  stats: declared({ reads: ['stats'], rest: [COMMIT_RECORD] }, detailField('stats')),
  // Codegen types enum results as null (their REST values come from enum-values.ts); REST's string is the value.
  status: declared({ reads: ['status'], rest: [COMMIT_RECORD] }, detailField('status') as unknown as NonNullable<CommitResolvers['status']>),
  lastPipeline: declared({ reads: ['last_pipeline'], returns: PIPELINE_OF_JOB, rest: [COMMIT_RECORD] }, detailField('last_pipeline')),
  // One commit look-up per parent.
  parents: declared({ items: UNBOUNDED_ARRAY_ITEMS, callsPerItem: 1, returns: COMMIT_LOADED, rest: [COMMIT_RECORD] }, (commit, _args, { loaders }) => {
    const project = projectOf(commit);
    return Promise.all((commit.parent_ids ?? []).map(async (sha) => commitRecord(await loaders.commit.load({ project, sha }), project)));
  }),
  sequence: declared({ ...oneCall(), rest: ['GET /projects/:id/repository/commits/:sha/sequence'] }, (commit, { firstParent }, { api }) =>
    api.commits.sequence(projectOf(commit), commit.id, firstParent ?? false),
  ),
  refs: declared({ ...restList(), rest: ['GET /projects/:id/repository/commits/:sha/refs'] }, (commit, args, { api }) => {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.refs(project, commit.id, args.type ?? 'all', page));
  }),
  diffs: declared({ ...restList(), rest: ['GET /projects/:id/repository/commits/:sha/diff'] }, (commit, args, { api }) => {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.diff(project, commit.id, page));
  }),
  comments: declared({ ...restList(), rest: ['GET /projects/:id/repository/commits/:sha/comments'] }, (commit, args, { api }) => {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.comments(project, commit.id, page));
  }),
  discussions: declared({ ...restList(), rest: ['GET /projects/:id/repository/commits/:sha/discussions'] }, (commit, args, { api }) => {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.discussions(project, commit.id, page));
  }),
  statuses: declared({ ...restList(), rest: ['GET /projects/:id/repository/commits/:sha/statuses'] }, (commit, args, { api }) => {
    const project = projectOf(commit);
    const filters = { ref: args.ref ?? undefined, stage: args.stage ?? undefined, name: args.name ?? undefined, all: args.all ?? undefined };
    // commit.id is the full SHA, which REST matches pipelines on.
    return restConnection(args, (page) => api.commitStatuses.all(project, commit.id, filters, page));
  }),
  mergeRequests: declared({ ...restList(MERGE_REQUEST_LISTED), rest: ['GET /projects/:id/repository/commits/:sha/merge_requests'] }, (commit, args, { api }) => {
    const project = projectOf(commit);
    return restConnection(args, (page) => api.commits.mergeRequests(project, commit.id, page));
  }),
  // An unsigned commit answers 404 "404 GPG Signature Not Found": no signature, not an error.
  signature: declared({ ...oneCall(), rest: ['GET /projects/:id/repository/commits/:sha/signature'] }, (commit, _args, { api }) =>
    nullWhenNotFound(api.commits.signature(projectOf(commit), commit.id)),
  ),
};

/** A runner job's commit belongs to the job's project, so its sub-resources can be asked for. */
const ciJobCommitFields: Pick<CiJobResolvers, 'commit'> = {
  commit: declared(embedded(COMMIT_OF_JOB), (job) => (job.commit ? commitRecord(job.commit, job.project?.id ?? null) : null)),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { CiJob: ciJobCommitFields, Commit };
