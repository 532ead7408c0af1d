import type { ProjectJobsArgs, ProjectResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { oneCall } from '../../cost/field-cost.js';
import { PIPELINE_LISTED, PROJECT_JOB } from '../../cost/shapes.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { declared } from '../../fields/declaration.js';
import { restListField } from '../../fields/patterns.js';

/** `Project.jobs`: REST's project job list, one page per window; `statuses` are REST's `scope[]`. */
const projectJobFields: Pick<ProjectResolvers, 'jobs'> = {
  jobs: restListField('GET /projects/:id/jobs', {
    filters: ({ statuses }: ProjectJobsArgs) => (statuses?.length ? { scope: [...statuses] } : {}),
    returns: PROJECT_JOB,
  }),
};

/** `Project.pipeline(sha:)`: the newest pipeline of the SHA, REST's list being newest first. */
const projectPipelineBySha: Pick<ProjectResolvers, 'pipeline'> = {
  // The first pipeline of the SHA's list.
  pipeline: declared({ ...oneCall(PIPELINE_LISTED), rest: ['GET /projects/:id/pipelines'] }, async (project, { sha }, { api }) => {
    // GitLab's resolver asks for one of iid or SHA; only the SHA has a REST filter.
    if (!sha) throw badUserInput('`sha` is required: the pipeline is found by its commit SHA.', 'sha');
    const page = await api.pipelines.all(project.id, { sha }, { page: 1, perPage: 1 });
    return page.items[0] ?? null;
  }),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Project: { ...projectJobFields, ...projectPipelineBySha } };
