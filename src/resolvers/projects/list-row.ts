// The fields of GitLab's project list rows that REST sources beyond the project record's own keys:
// the settings page's path, the caller's role, and the number of open merge requests.
import type { ProjectResolvers } from '../../__generated__/resolvers-types.js';
import type { ProjectSchema } from '../../datasources/projects.js';
import { declared } from '../../fields/declaration.js';
import { RestError } from '../../datasources/rest-error.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { readRecordField } from '../record-fields.js';
import { pathOfWebUrl } from '../web-path.js';
import { callerMaxAccessLevel } from './permissions.js';

/** REST refuses a project's merge request list (403) when the caller may not read its merge requests. */
async function nullWhenRefused<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (error instanceof RestError && (error.status === 403 || error.status === 404)) return null;
    throw error;
  }
}

export const projectListRowFields: Pick<ProjectResolvers, 'editPath' | 'maxAccessLevel' | 'openMergeRequestsCount'> = {
  // GitLab's edit_project_path: the project's page with `/edit`, from `web_url`.
  editPath: declared({ reads: ['web_url'], rest: ['GET /projects/:id'] }, async (project, _args, context) => {
    const webUrl = (await readRecordField(project, 'web_url', context, FULL_RECORD_LOADERS['Project'])) as ProjectSchema['web_url'];
    const path = pathOfWebUrl(webUrl);
    return path ? `${path}/edit` : null;
  }),
  // GET /projects/:id with the caller's `permissions`, unless the record at hand has them.
  maxAccessLevel: declared({ calls: 1, unlessParentHas: 'permissions', rest: ['GET /projects/:id'] }, (project, _args, context) =>
    callerMaxAccessLevel(project, context),
  ),
  // GitLab answers it only to callers who may read the merge requests (authorize: :read_merge_request).
  // A one-item page of GET /projects/:id/merge_requests?state=opened, once per project and request.
  openMergeRequestsCount: declared({ calls: 1, rest: ['GET /projects/:id/merge_requests'] }, (project, _args, { loaders }) =>
    nullWhenRefused(loaders.openMergeRequestsCount.load(project.id)),
  ),
};
