import type { ProjectResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';

/** `Project.jobs`: REST's project job list, one page per window. */
export const projectJobFields: Pick<ProjectResolvers, 'jobs'> = {
  jobs: (project, args, { api }) => restConnection(args, (page) => api.projectJobs.forProject(project.id, args.statuses ?? [], page)),
};
