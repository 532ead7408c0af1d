import { GraphQLError } from 'graphql';
import type { IssueKey, IssueSchema } from '../../datasources/issues.js';
import { badUserInput } from '../../errors/graphql-errors.js';
import { checkFullPath } from '../projects/Query.js';

/**
 * The numeric id of an issue's project: `project_id`, or, for a record without it (the
 * documentation's `GET /issues/:id` example has none), the id that ends its `_links.project` URL.
 */
export function projectIdOf(issue: Pick<IssueSchema, 'project_id' | '_links'>): number {
  if (typeof issue.project_id === 'number') return issue.project_id;
  const fromLink = /\/projects\/(\d+)\/?$/.exec(issue._links?.project ?? '')?.[1];
  if (fromLink) return Number(fromLink);
  throw new GraphQLError('The REST issue record names no project.', { extensions: { code: 'UPSTREAM_ERROR' } });
}

/** REST's name of an issue record: its project's numeric id and its iid. */
export function issueKeyOf(issue: Pick<IssueSchema, 'project_id' | '_links' | 'iid'>): IssueKey {
  return { project: projectIdOf(issue), iid: issue.iid };
}

/** An internal ID argument: GitLab's GraphQL passes it as a string of digits. */
export function checkIid(iid: string, argumentName = 'iid'): number {
  if (!/^\d{1,15}$/.test(iid)) throw badUserInput(`\`${argumentName}\` must be an internal ID such as "12"; got "${iid.slice(0, 100)}".`, argumentName);
  return Number(iid);
}

/** The issue a mutation names by `projectPath` and `iid`, checked before any REST call. */
export function issueKeyFromInput(input: { projectPath: string; iid: string }): IssueKey {
  return { project: checkFullPath(input.projectPath, 'projectPath'), iid: checkIid(input.iid) };
}
