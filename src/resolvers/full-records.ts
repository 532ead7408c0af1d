import type { IssueSchema } from '../datasources/issues.js';
import { issueKeyOf } from './issues/key.js';
import type { FullRecordLoader } from './record-fields.js';

/**
 * For each object type that REST embeds in partial form, how to get its full record. A field the
 * embedded record lacks is read from this record, fetched once per request.
 */
export const FULL_RECORD_LOADERS: Readonly<Record<string, FullRecordLoader>> = {
  CiRunner: (runner, { loaders }) => loaders.runner.load(runner.id),
  Project: (project, { loaders }) => loaders.project.load(project.id),
  Group: (group, { loaders }) => loaders.group.load(group.id),
  // A job's pipeline carries `id`, `sha`, `ref` and `status`; the rest is the pipeline's own record.
  Pipeline: (pipeline, { loaders }) => {
    const project = (pipeline as { project_id?: number }).project_id;
    return project === undefined ? Promise.resolve(pipeline) : loaders.pipeline.load({ project, pipelineId: pipeline.id });
  },
  UserCore: (user, { loaders }) => loaders.user.load(user.id),
  MergeRequestAssignee: (user, { loaders }) => loaders.user.load(user.id),
  MergeRequestReviewer: (user, { loaders }) => loaders.user.load(user.id),
  MergeRequestParticipant: (user, { loaders }) => loaders.user.load(user.id),
  // List and single reads are whole issue records (`_links` marks them): a field they lack is one
  // REST does not send, so only an embedded issue (a to-do's target) fetches its record.
  Issue: (issue, { loaders }) => {
    const record = issue as IssueSchema;
    return '_links' in record ? Promise.resolve(record) : loaders.issue.load(issueKeyOf(record));
  },
};
