import type { MergeRequestKey, MergeRequestSchema } from '../../datasources/merge-requests.js';
import type { DeclarationSpec } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';

/** GitLab's limit on the assignees, and on the reviewers, of a merge request (Issuable::MAX_NUMBER_OF_ASSIGNEES_OR_REVIEWERS). */
export const MAX_ASSIGNEES = 200;

/** REST's single read of a merge request: its whole record, which the mergeRequest loader shares. */
export const MERGE_REQUEST_READ = 'GET /projects/:id/merge_requests/:merge_request_iid';

/** The merge request's project: the target project, where REST files it. */
export const projectIdOf = (mergeRequest: MergeRequestSchema): number => mergeRequest.target_project_id ?? mergeRequest.project_id;

/** REST's name of a merge request: its project's numeric id and its iid. */
export const mergeRequestKeyOf = (mergeRequest: MergeRequestSchema): MergeRequestKey => ({ project: projectIdOf(mergeRequest), iid: mergeRequest.iid });

/**
 * The record that holds `key`: the one at hand when it has it (the single read,
 * `related_merge_requests`), else the merge request's own record, which list records
 * (MergeRequestBasic) need: one `GET /projects/:id/merge_requests/:merge_request_iid` per merge
 * request and request, shared by every field that reads it.
 */
export function wholeRecordWith(mergeRequest: MergeRequestSchema, key: keyof MergeRequestSchema, context: GatewayContext): Promise<MergeRequestSchema> {
  if (key in mergeRequest) return Promise.resolve(mergeRequest);
  return context.loaders.mergeRequest.load(mergeRequestKeyOf(mergeRequest));
}

/** A key of the whole record, read as `wholeRecordWith` finds it; null when REST sends none. */
export async function wholeRecordField<K extends keyof MergeRequestSchema>(mergeRequest: MergeRequestSchema, key: K, context: GatewayContext): Promise<NonNullable<MergeRequestSchema[K]> | null> {
  return (await wholeRecordWith(mergeRequest, key, context))[key] ?? null;
}

/** A field that reads `key` as `wholeRecordWith` finds it: the whole record's single read when the record at hand lacks it. */
export const readsWholeRecord = (key: keyof MergeRequestSchema, spec: DeclarationSpec = {}): DeclarationSpec => ({ reads: [key], loader: 'mergeRequest', rest: [MERGE_REQUEST_READ], ...spec });
