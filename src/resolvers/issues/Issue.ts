import type { IssueResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection, restConnection } from '../../connections/connection.js';
import { embedded, oneCall, restList, UNBOUNDED_ARRAY_ITEMS } from '../../cost/field-cost.js';
import { ID_ONLY, LABEL_LISTED, MERGE_REQUEST_LISTED, MERGE_REQUEST_RECORD, USER_SUMMARY } from '../../cost/shapes.js';
import type { TimeStatsSchema } from '../../datasources/issuable-schemas.js';
import type { IssueLinksSchema, IssueSchema } from '../../datasources/issues.js';
import type { UserSchema } from '../../datasources/users.js';
import { declared, type DeclarationSpec } from '../../fields/declaration.js';
import { recordField } from '../../fields/patterns.js';
import type { GatewayContext } from '../../server/context.js';
import { FULL_RECORD_LOADERS } from '../full-records.js';
import { toGlobalId } from '../global-id.js';
import { nullWhenNotFound } from '../lookups.js';
import { readRecordField } from '../record-fields.js';
import { pathOfWebUrl } from '../web-path.js';
import { renderMarkdown } from '../projects/markdown.js';
import { rememberServedIssue } from '../subscriptions/served-issues.js';
import { formatHumanDuration } from './human-duration.js';
import { issueKeyOf, projectIdOf } from './key.js';
import { asksForLabelDetails, labelsOfIssue, withLabelDetails } from './labels.js';
import { issueNoteFields } from './notes.js';

/** GitLab's limit on the assignees of an issue (Issuable::MAX_NUMBER_OF_ASSIGNEES_OR_REVIEWERS). */
const MAX_ASSIGNEES = 200;

/** The issue loader's read: the whole record, which an embedded issue (a to-do's target) lacks. */
const ISSUE_RECORD_READ = 'GET /projects/:id/issues/:issue_iid';

/** A key of the issue's REST record, read through the issue loader when the parent lacks it. */
const readsIssue = (key: string, spec: DeclarationSpec = {}): DeclarationSpec => ({ reads: [key], rest: [ISSUE_RECORD_READ], ...spec });

/** `GET .../time_stats` unless the record has them. */
const TIME_STATS: DeclarationSpec = { calls: 1, unlessParentHas: 'time_stats', rest: ['GET /projects/:id/issues/:issue_iid/time_stats'] };

/** REST `POST /markdown`, one text per call; the project's path is in the record's references. */
const renderedFrom = (key: string): DeclarationSpec => ({ reads: [key, 'references'], calls: 1, rest: ['POST /markdown'] });

/** The project loader (`emails_disabled`). */
const PROJECT_EMAILS: DeclarationSpec = { ...oneCall(), rest: ['GET /projects/:id'] };

/** A REST field of the issue, from its full record when the parent is an embedded one. */
const readIssueField = (issue: IssueSchema, key: string, context: GatewayContext) => readRecordField(issue, key, context, FULL_RECORD_LOADERS['Issue']);

/** The issue's time stats: from its record, or (an embedded issue lacks them) `GET .../time_stats`. */
async function timeStatsOf(issue: IssueSchema, { api }: GatewayContext): Promise<TimeStatsSchema> {
  return issue.time_stats ?? (await api.issues.timeStats(issueKeyOf(issue)));
}

/** Whether e-mails are off for the issue's project: REST keeps it on the project (`emails_disabled`, or the newer `emails_enabled`). */
async function emailsDisabled(issue: IssueSchema, { loaders }: GatewayContext): Promise<boolean> {
  const project = (await loaders.project.load(projectIdOf(issue))) as { emails_disabled?: boolean | null; emails_enabled?: boolean | null };
  if (typeof project.emails_enabled === 'boolean') return !project.emails_enabled;
  return project.emails_disabled === true;
}

/** The full path of the issue's project, which REST's Markdown rendering takes as its context. */
function projectPathOf(issue: IssueSchema): string | undefined {
  const full = issue.references?.full;
  if (full) return full.replace(/#\d+$/, '');
  return pathOfWebUrl(issue.web_url)
    ?.replace(/^\//, '')
    .replace(/\/-\/issues\/\d+$/, '');
}

/** GitLab renders a title on one line: REST's Markdown wraps it in a paragraph, which goes. */
function singleLine(html: string | null): string | null {
  return html === null ? null : (/^<p\b[^>]*>([\s\S]*)<\/p>$/.exec(html.trim())?.[1] ?? html);
}

export const Issue: IssueResolvers = {
  // The people the issue record embeds (UserBasic).
  author: recordField(embedded(USER_SUMMARY)),
  assignee: recordField(embedded(USER_SUMMARY)),
  closedBy: recordField(embedded(USER_SUMMARY)),
  // Reads the context only to remember the issue for subscriptions by global ID: no REST call.
  id: declared({ calls: 0 }, (issue, _args, context) => {
    rememberServedIssue(issue, context);
    return toGlobalId('Issue', issue.id);
  }),
  iid: (issue) => String(issue.iid),
  projectId: (issue) => projectIdOf(issue),
  titleHtml: declared(renderedFrom('title'), async (issue, _args, context) => singleLine(await renderMarkdown(context, issue.title, projectPathOf(issue)))),
  descriptionHtml: declared(renderedFrom('description'), (issue, _args, context) => renderMarkdown(context, issue.description, projectPathOf(issue))),
  // Only the id is known; any other project field is fetched (or found primed) through the project loader.
  project: declared(embedded(ID_ONLY), (issue) => ({ id: projectIdOf(issue) })),
  assignees: declared(readsIssue('assignees', { items: MAX_ASSIGNEES, returns: USER_SUMMARY }), async (issue, args, context) =>
    arrayConnection(args, ((await readIssueField(issue, 'assignees', context)) as UserSchema[] | null) ?? []),
  ),
  // Names are all an issue record has; when the query asks for more, the project's labels are read
  // here, once per project and request, rather than once per label field: one read of the
  // project's labels per issue at most (one per project, shared through the loader, with batching on).
  labels: declared(
    {
      reads: ['labels'],
      calls: 1,
      items: UNBOUNDED_ARRAY_ITEMS,
      returns: LABEL_LISTED,
      rest: [ISSUE_RECORD_READ, 'GET /projects/:id/labels'],
    },
    async (issue, args, context, info) => {
      const named = labelsOfIssue(await readIssueField(issue, 'labels', context), projectIdOf(issue));
      return arrayConnection(args, asksForLabelDetails(info) ? await withLabelDetails(named, context) : named);
    },
  ),
  // REST's `type` is the record kind in upper case; the issue's type is `issue_type`, whose REST
  // value is the enum's internal value. (Codegen types enum results as `null` when enums carry
  // REST values, hence the cast.)
  type: declared(readsIssue('issue_type'), async (issue, _args, context) => ((await readIssueField(issue, 'issue_type', context)) ?? null) as null),
  movedToId: declared(readsIssue('moved_to_id'), async (issue, _args, context) => {
    const movedTo = await readIssueField(issue, 'moved_to_id', context);
    return typeof movedTo === 'number' ? toGlobalId('Issue', movedTo) : null;
  }),
  moved: declared(readsIssue('moved_to_id'), async (issue, _args, context) => typeof (await readIssueField(issue, 'moved_to_id', context)) === 'number'),
  webUrl: (issue) => issue.web_url ?? '',
  webPath: (issue) => pathOfWebUrl(issue.web_url) ?? '',
  // GitLab's `to_reference(full:)`: `#1`, or `group/project#1`.
  reference: (issue, { full }) => (full ? (issue.references?.full ?? `#${issue.iid}`) : (issue.references?.short ?? issue.reference ?? `#${issue.iid}`)),
  // REST names it `_links`, which the snake_case reading of `links` would miss.
  links: declared(readsIssue('_links'), async (issue, _args, context) => ((await readIssueField(issue, '_links', context)) as IssueLinksSchema | null) ?? null),
  timeStats: declared(TIME_STATS, (issue, _args, context) => timeStatsOf(issue, context)),
  timeEstimate: declared(TIME_STATS, async (issue, _args, context) => (await timeStatsOf(issue, context)).time_estimate ?? 0),
  totalTimeSpent: declared(TIME_STATS, async (issue, _args, context) => (await timeStatsOf(issue, context)).total_time_spent ?? 0),
  // Computed from the seconds by GitLab's rules rather than read, so that every issue answers alike.
  humanTimeEstimate: declared(TIME_STATS, async (issue, _args, context) => formatHumanDuration((await timeStatsOf(issue, context)).time_estimate ?? 0)),
  humanTotalTimeSpent: declared(TIME_STATS, async (issue, _args, context) => formatHumanDuration((await timeStatsOf(issue, context)).total_time_spent ?? 0)),
  emailsDisabled: declared(PROJECT_EMAILS, (issue, _args, context) => emailsDisabled(issue, context)),
  emailsEnabled: declared(PROJECT_EMAILS, async (issue, _args, context) => !(await emailsDisabled(issue, context))),
  // List records lack `subscribed` (only the single read has it), so it costs that read, through the issue loader.
  subscribed: declared(
    { ...oneCall(), rest: [ISSUE_RECORD_READ] },
    async (issue, _args, { loaders }) => issue.subscribed ?? (await loaders.issue.load(issueKeyOf(issue))).subscribed ?? false,
  ),
  // GET /todos of the issue's project, through a loader shared by the project's issues.
  currentUserTodos: declared({ calls: 1, items: 'window', rest: ['GET /todos'] }, async (issue, args, { credential, loaders }) => {
    if (!credential) return arrayConnection(args, []);
    const todos = await loaders.projectIssueTodos.load({ project: projectIdOf(issue), state: args.state ?? undefined });
    return arrayConnection(
      args,
      todos.filter((todo) => todo.target_type === 'Issue' && todo.target?.iid === issue.iid),
    );
  }),
  epicIid: declared(readsIssue('epic_iid'), async (issue, _args, context) => {
    const epicIid = await readIssueField(issue, 'epic_iid', context);
    return typeof epicIid === 'number' ? epicIid : (issue.epic?.iid ?? null);
  }),
  ...issueNoteFields,
  // Related merge requests are whole records (with their pipelines); the closing ones are MergeRequestBasic.
  relatedMergeRequests: declared({ ...restList(MERGE_REQUEST_RECORD), rest: ['GET /projects/:id/issues/:issue_iid/related_merge_requests'] }, (issue, args, { api }) =>
    restConnection(args, (page) => api.issues.relatedMergeRequests(issueKeyOf(issue), page)),
  ),
  closedByMergeRequests: declared({ ...restList(MERGE_REQUEST_LISTED), rest: ['GET /projects/:id/issues/:issue_iid/closed_by'] }, (issue, args, { api }) =>
    restConnection(args, (page) => api.issues.closedBy(issueKeyOf(issue), page)),
  ),
  participants: declared({ ...restList(USER_SUMMARY), rest: ['GET /projects/:id/issues/:issue_iid/participants'] }, (issue, args, { api }) =>
    restConnection(args, (page) => api.issues.participants(issueKeyOf(issue), page)),
  ),
  userAgentDetail: declared({ ...oneCall(), rest: ['GET /projects/:id/issues/:issue_iid/user_agent_detail'] }, (issue, _args, { api }) =>
    nullWhenNotFound(api.issues.userAgentDetail(issueKeyOf(issue))),
  ),
  // Its `issue_type`; the images only for incidents.
  metricImages: declared(
    readsIssue('issue_type', {
      calls: 1,
      items: UNBOUNDED_ARRAY_ITEMS,
      rest: [ISSUE_RECORD_READ, 'GET /projects/:id/issues/:issue_iid/metric_images'],
    }),
    async (issue, _args, context) => {
      // Only incidents have metric images; REST answers 404 for anything else, so it is not asked.
      if ((await readIssueField(issue, 'issue_type', context)) !== 'incident') return null;
      return nullWhenNotFound(context.api.metricImages.all(issueKeyOf(issue)));
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Issue };
