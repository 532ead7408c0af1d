/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/**
 * Status of a runner as REST reports it (`status`), and the `status` filter of runner lists. `online`
 * and `offline` follow when the runner last contacted the server; `stale` runners have not contacted it
 * for over three months.
 */
export type CiRunnerStatus =
  /** Not paused (`active`); only as a filter. */
  | 'ACTIVE'
  /** Registered but has never contacted the server (`never_contacted`). */
  | 'NEVER_CONTACTED'
  /**
   * Not connected (`not_connected`): older servers' name for a runner that never contacted the server.
   * Reported only; not accepted as a filter.
   */
  | 'NOT_CONNECTED'
  /** Has not contacted the server recently (`offline`). */
  | 'OFFLINE'
  /** Contacted the server recently (`online`). */
  | 'ONLINE'
  /** Paused: takes no new jobs (`paused`). Newer servers report pausing only through `paused`. */
  | 'PAUSED'
  /** Has not contacted the server for more than three months (`stale`). */
  | 'STALE';

export type RunnerSummaryFragment = { id: string, description: string | null, status: CiRunnerStatus, paused: boolean } & { ' $fragmentName'?: 'RunnerSummaryFragment' };

export type FleetQueryVariables = Exact<{
  first: number;
  status?: CiRunnerStatus | null | undefined;
}>;


export type FleetQuery = { currentUser: { username: string } | null, ownedRunners: { count: number | null, nodes: Array<(
      { projects: { nodes: Array<{ fullPath: string }> } | null }
      & { ' $fragmentRefs'?: { 'RunnerSummaryFragment': RunnerSummaryFragment } }
    )> } };

export type PauseRunnerMutationVariables = Exact<{
  id: unknown;
  paused: boolean;
}>;


export type PauseRunnerMutation = { runnerUpdate: { errors: Array<string>, runner: { ' $fragmentRefs'?: { 'RunnerSummaryFragment': RunnerSummaryFragment } } | null } | null };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const RunnerSummaryFragmentDoc = new TypedDocumentString(`
    fragment RunnerSummary on CiRunner {
  id
  description
  status
  paused
}
    `, {"fragmentName":"RunnerSummary"}) as unknown as TypedDocumentString<RunnerSummaryFragment, unknown>;
export const FleetDocument = new TypedDocumentString(`
    query Fleet($first: Int!, $status: CiRunnerStatus) {
  currentUser {
    username
  }
  ownedRunners(first: $first, status: $status) {
    count
    nodes {
      ...RunnerSummary
      projects {
        nodes {
          fullPath
        }
      }
    }
  }
}
    fragment RunnerSummary on CiRunner {
  id
  description
  status
  paused
}`, {"hash":"sha256:92dfd78393420b3ccdc30763155c321ce26d60ba4d7c04e0355edfb704c0c1e6"}) as unknown as TypedDocumentString<FleetQuery, FleetQueryVariables>;
export const PauseRunnerDocument = new TypedDocumentString(`
    mutation PauseRunner($id: CiRunnerID!, $paused: Boolean!) {
  runnerUpdate(input: {id: $id, paused: $paused}) {
    errors
    runner {
      ...RunnerSummary
    }
  }
}
    fragment RunnerSummary on CiRunner {
  id
  description
  status
  paused
}`, {"hash":"sha256:4a048af8516301488d848f429436adcd8ee42aaa9f2034f57ea62a904155a8ce"}) as unknown as TypedDocumentString<PauseRunnerMutation, PauseRunnerMutationVariables>;