/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/**
 * Status of a runner as REST reports it (`status`). `online` and `offline` follow when the runner last
 * contacted the server; `stale` runners have not contacted it for over three months.
 */
export type CiRunnerStatus =
  /** Registered but has never contacted the server (`never_contacted`). */
  | 'NEVER_CONTACTED'
  /** Not connected (`not_connected`); older servers' name for a runner that never contacted the server. */
  | 'NOT_CONNECTED'
  /** Has not contacted the server recently (`offline`). */
  | 'OFFLINE'
  /** Contacted the server recently (`online`). */
  | 'ONLINE'
  /** Paused: takes no new jobs (`paused`). Newer servers report pausing only through `paused`. */
  | 'PAUSED'
  /** Has not contacted the server for more than three months (`stale`). */
  | 'STALE';

/** Values of the REST `status` filter of runner lists. */
export type CiRunnerStatusFilter =
  /** Runners that are not paused (`active`). */
  | 'ACTIVE'
  /** Runners that have never contacted the server (`never_contacted`). */
  | 'NEVER_CONTACTED'
  /** Runners that have not contacted the server recently (`offline`). */
  | 'OFFLINE'
  /** Runners that contacted the server recently (`online`). */
  | 'ONLINE'
  /** Paused runners (`paused`). */
  | 'PAUSED'
  /** Runners that have not contacted the server for over three months (`stale`). */
  | 'STALE';

export type RunnerSummaryFragment = { id: string, description: string | null, status: CiRunnerStatus, paused: boolean } & { ' $fragmentName'?: 'RunnerSummaryFragment' };

export type FleetQueryVariables = Exact<{
  first: number;
  status?: CiRunnerStatusFilter | null | undefined;
}>;


export type FleetQuery = { currentUser: { username: string } | null, runners: { count: number | null, nodes: Array<(
      { projects: { nodes: Array<{ fullPath: string }> } }
      & { ' $fragmentRefs'?: { 'RunnerSummaryFragment': RunnerSummaryFragment } }
    )> } };

export type PauseRunnerMutationVariables = Exact<{
  id: string | number;
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
    query Fleet($first: Int!, $status: CiRunnerStatusFilter) {
  currentUser {
    username
  }
  runners(first: $first, status: $status) {
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
}`) as unknown as TypedDocumentString<FleetQuery, FleetQueryVariables>;
export const PauseRunnerDocument = new TypedDocumentString(`
    mutation PauseRunner($id: ID!, $paused: Boolean!) {
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
}`) as unknown as TypedDocumentString<PauseRunnerMutation, PauseRunnerMutationVariables>;