import type { Credential } from '../datasources/credentials.js';
import { IssuesApi, type IssueKey, type IssueSchema } from '../datasources/issues.js';
import type { PushIterator } from './push-iterator.js';
import type { Aspect, RecordEvent, RecordPollers, WatchedRecord } from './record-pollers.js';

/** The aspects of an issue the sidebar subscribes to, one `issuable<Aspect>Updated` field each. */
export type IssuableAspect = 'assignees' | 'labels' | 'milestone' | 'dates' | 'title' | 'description' | 'timeTracking';

/** What an issuable subscriber receives: the issue after a change of its aspect, or the error that ended the watch. */
export type IssuableEvent = RecordEvent<IssueSchema>;

/** Label names, from a list record's strings or a detailed record's objects. */
function labelNames(issue: IssueSchema): string[] {
  return (issue.labels ?? []).map((label) => (typeof label === 'string' ? label : label.name));
}

/**
 * Each aspect as a string that changes when the aspect does. JSON of arrays, so that no value a
 * title or label can hold makes two different aspects read the same.
 */
export const ISSUABLE_ASPECTS: Readonly<Record<IssuableAspect, Aspect<IssueSchema>>> = {
  assignees: (issue) => JSON.stringify((issue.assignees ?? []).map((user) => user.id)),
  labels: (issue) => JSON.stringify(labelNames(issue)),
  milestone: (issue) => JSON.stringify(issue.milestone?.id ?? null),
  // REST gives issues a due date only; GitLab's start date belongs to epics and work items.
  dates: (issue) => JSON.stringify(issue.due_date ?? null),
  title: (issue) => JSON.stringify(issue.title ?? null),
  description: (issue) => JSON.stringify(issue.description ?? null),
  timeTracking: (issue) => JSON.stringify([issue.time_stats?.time_estimate ?? 0, issue.time_stats?.total_time_spent ?? 0]),
};

/**
 * An issue as the pollers watch it: `GET /projects/:id/issues/:issue_iid`, under the `issue` topic
 * and its global id (`issue-lease:<digest>:<id>`), so that every subscription to it, on any replica,
 * shares one poll per interval.
 */
export function watchedIssue(issueId: number, key: IssueKey): WatchedRecord<IssueSchema> {
  return { topic: 'issue', id: String(issueId), fetch: (session) => new IssuesApi(session).show(key) };
}

/** Subscribes to changes of one aspect of an issue, through the shared pollers. */
export function watchIssuable(
  pollers: RecordPollers,
  credential: Credential,
  issue: { id: number; key: IssueKey },
  aspect: IssuableAspect,
): Promise<PushIterator<IssuableEvent>> {
  return pollers.watch(credential, watchedIssue(issue.id, issue.key), ISSUABLE_ASPECTS[aspect]);
}
