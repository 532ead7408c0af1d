import type { CommitResolvers, ProjectResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';

/** `Project.pipelines`: REST's list with its filters. */
export const projectPipelineFields: Pick<ProjectResolvers, 'pipelines'> = {
  pipelines(project, args, { api }) {
    const filters = { scope: args.scope ?? undefined, sha: args.sha ?? undefined, ref: args.ref ?? undefined, status: args.status ?? undefined };
    return restConnection(args, (page) => api.pipelines.all(project.id, filters, page));
  },
};

/** `Commit.pipelines`: the project's pipelines of the commit's SHA; null when the commit names no project. */
export const commitPipelineFields: Pick<CommitResolvers, 'pipelines'> = {
  pipelines(commit, args, { api }) {
    if (commit.project_ref === null) return null;
    const filters = { scope: args.scope ?? undefined, sha: commit.id, ref: args.ref ?? undefined, status: args.status ?? undefined };
    return restConnection(args, (page) => api.pipelines.all(commit.project_ref!, filters, page));
  },
};
