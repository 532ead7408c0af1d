/**
 * The operations this client sends, written with the client preset's `graphql()`: each one's
 * result and variables are typed from the gateway's schema.graphql.
 */
import { graphql } from './gql/index.js';

/** What the client shows of a runner; masked: only `useFragment` reads it. */
export const RunnerSummaryFragment = graphql(`
  fragment RunnerSummary on CiRunner {
    id
    description
    status
    paused
  }
`);

/** The caller and a page of runners, each with its summary and its projects. */
export const FleetQuery = graphql(`
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
`);

/** Pauses or resumes a runner; REST's refusals come back in `errors`. */
export const PauseRunnerMutation = graphql(`
  mutation PauseRunner($id: CiRunnerID!, $paused: Boolean!) {
    runnerUpdate(input: { id: $id, paused: $paused }) {
      errors
      runner {
        ...RunnerSummary
      }
    }
  }
`);
