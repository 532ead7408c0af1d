import type { IssueResolvers } from '../../__generated__/resolvers-types.js';
import { restConnection } from '../../connections/connection.js';
import type { GatewayContext } from '../../server/context.js';
import type { IssueLinksSchema, IssueSchema, LabelSchema } from '../../datasources/issues.js';
import type { UserSchema } from '../../datasources/users.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { readRecordField } from '../record-fields.js';
import { issueKeyOf, projectIdOf } from './key.js';

/** A REST field of the issue, from its full record when the parent is an embedded one. */
const readIssueField = (issue: IssueSchema, key: string, context: GatewayContext) => readRecordField(issue, key, context, FULL_RECORD_LOADERS['Issue']);

/** Issue lists name labels; `with_labels_details=true` gives objects. Both become Label objects. */
function labelObjects(labels: unknown): LabelSchema[] {
  if (!Array.isArray(labels)) return [];
  return (labels as Array<string | LabelSchema>).map((label) => (typeof label === 'string' ? { name: label } : label));
}

export const Issue: IssueResolvers = {
  id: (issue) => toGlobalId('Issue', issue.id),
  iid: (issue) => String(issue.iid),
  // Only the id is known; any other project field is fetched (or found primed) through the project loader.
  project: (issue) => ({ id: projectIdOf(issue) }),
  assignees: async (issue, _args, context) => ((await readIssueField(issue, 'assignees', context)) as UserSchema[] | null) ?? [],
  labels: async (issue, _args, context) => labelObjects(await readIssueField(issue, 'labels', context)),
  movedToId: async (issue, _args, context) => {
    const movedTo = await readIssueField(issue, 'moved_to_id', context);
    return typeof movedTo === 'number' ? toGlobalId('Issue', movedTo) : null;
  },
  // The deprecated `reference` was the short form; newer REST answers only carry `references`.
  reference: (issue) => issue.reference ?? issue.references?.short ?? null,
  // REST names it `_links`, which the snake_case reading of `links` would miss.
  links: async (issue, _args, context) => ((await readIssueField(issue, '_links', context)) as IssueLinksSchema | null) ?? null,
  // An embedded issue lacks its time stats; REST serves them alone (`GET .../time_stats`).
  timeStats: async (issue, _args, { api }) => issue.time_stats ?? (await api.issues.timeStats(issueKeyOf(issue))),
  // List records lack `subscribed` (only the single read has it), so it costs that read.
  subscribed: async (issue, _args, { loaders }) =>
    issue.subscribed ?? (await loaders.issue.load(issueKeyOf(issue))).subscribed ?? null,
  epicIid: async (issue, _args, context) => {
    const epicIid = await readIssueField(issue, 'epic_iid', context);
    return typeof epicIid === 'number' ? epicIid : (issue.epic?.iid ?? null);
  },
  relatedMergeRequests: (issue, args, { api }) => restConnection(args, (page) => api.issues.relatedMergeRequests(issueKeyOf(issue), page)),
  closedByMergeRequests: (issue, args, { api }) => restConnection(args, (page) => api.issues.closedBy(issueKeyOf(issue), page)),
  participants: (issue, args, { api }) => restConnection(args, (page) => api.issues.participants(issueKeyOf(issue), page)),
  userAgentDetail: (issue, _args, { api }) => nullWhenNotFound(api.issues.userAgentDetail(issueKeyOf(issue))),
  async metricImages(issue, _args, context) {
    // Only incidents have metric images; REST answers 404 for anything else, so it is not asked.
    if ((await readIssueField(issue, 'issue_type', context)) !== 'incident') return null;
    return nullWhenNotFound(context.api.metricImages.all(issueKeyOf(issue)));
  },
};

