/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment RunnerSummary on CiRunner {\n    id\n    description\n    status\n    paused\n  }\n": typeof types.RunnerSummaryFragmentDoc,
    "\n  query Fleet($first: Int!, $status: CiRunnerStatus) {\n    currentUser {\n      username\n    }\n    ownedRunners(first: $first, status: $status) {\n      count\n      nodes {\n        ...RunnerSummary\n        projects {\n          nodes {\n            fullPath\n          }\n        }\n      }\n    }\n  }\n": typeof types.FleetDocument,
    "\n  mutation PauseRunner($id: CiRunnerID!, $paused: Boolean!) {\n    runnerUpdate(input: { id: $id, paused: $paused }) {\n      errors\n      runner {\n        ...RunnerSummary\n      }\n    }\n  }\n": typeof types.PauseRunnerDocument,
};
const documents: Documents = {
    "\n  fragment RunnerSummary on CiRunner {\n    id\n    description\n    status\n    paused\n  }\n": types.RunnerSummaryFragmentDoc,
    "\n  query Fleet($first: Int!, $status: CiRunnerStatus) {\n    currentUser {\n      username\n    }\n    ownedRunners(first: $first, status: $status) {\n      count\n      nodes {\n        ...RunnerSummary\n        projects {\n          nodes {\n            fullPath\n          }\n        }\n      }\n    }\n  }\n": types.FleetDocument,
    "\n  mutation PauseRunner($id: CiRunnerID!, $paused: Boolean!) {\n    runnerUpdate(input: { id: $id, paused: $paused }) {\n      errors\n      runner {\n        ...RunnerSummary\n      }\n    }\n  }\n": types.PauseRunnerDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RunnerSummary on CiRunner {\n    id\n    description\n    status\n    paused\n  }\n"): typeof import('./graphql.js').RunnerSummaryFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Fleet($first: Int!, $status: CiRunnerStatus) {\n    currentUser {\n      username\n    }\n    ownedRunners(first: $first, status: $status) {\n      count\n      nodes {\n        ...RunnerSummary\n        projects {\n          nodes {\n            fullPath\n          }\n        }\n      }\n    }\n  }\n"): typeof import('./graphql.js').FleetDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PauseRunner($id: CiRunnerID!, $paused: Boolean!) {\n    runnerUpdate(input: { id: $id, paused: $paused }) {\n      errors\n      runner {\n        ...RunnerSummary\n      }\n    }\n  }\n"): typeof import('./graphql.js').PauseRunnerDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
