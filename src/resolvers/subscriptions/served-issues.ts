import type { IssueSchema } from '../../datasources/issues.js';
import type { GatewayContext } from '../../server/context.js';
import { issueKeyOf } from '../issues/key.js';

/**
 * Remembers that the caller was served this issue's global ID, so that it may subscribe to it by
 * that ID without REST's administrator-only look-up (subscriptions/issue-references.ts). Called
 * where the `id` of an issue is resolved: the one field every client reads before it subscribes.
 */
export function rememberServedIssue(issue: IssueSchema, { credential, issueReferences }: GatewayContext): void {
  if (!credential || typeof issue.id !== 'number' || typeof issue.iid !== 'number') return;
  let key;
  try {
    key = issueKeyOf(issue);
  } catch {
    return; // a record that names no project: nothing a subscription could poll
  }
  issueReferences.remember(credential, issue.id, key);
}
