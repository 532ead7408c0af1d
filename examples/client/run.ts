/**
 * A typed client of the gateway: the operations in documents.ts, sent with plain fetch(), their
 * results typed by the code the client preset generated from schema.graphql (gql/).
 *
 *   GATEWAY_URL=http://127.0.0.1:4000/graphql GITLAB_TOKEN=glpat-demo-maintainer npx tsx examples/client/run.ts
 *
 * Against a gateway that runs trusted documents only (TRUSTED_DOCUMENTS=examples/client/gql/persisted-documents.json),
 * add TRUSTED_DOCUMENTS=on: each operation is then sent by its id (`documentId`), never its text.
 */
import { pathToFileURL } from 'node:url';
import { FleetQuery, PauseRunnerMutation, RunnerSummaryFragment } from './documents.js';
import type { RunnerSummaryFragment as RunnerSummary, TypedDocumentString } from './gql/graphql.js';
import { useFragment } from './gql/index.js';

export interface Endpoint {
  /** The gateway's GraphQL URL, `http://host:port/graphql`. */
  url: string;
  /** Sent as `PRIVATE-TOKEN`. */
  token: string;
  /**
   * Send each operation's id (`documentId`, the SHA-256 codegen wrote into gql/persisted-documents.json)
   * instead of its text: what a gateway with `TRUSTED_DOCUMENTS` set runs.
   */
  trustedDocuments?: boolean;
}

/** Sends one operation; its variables and its result are typed by the document itself. */
export async function execute<TResult, TVariables>(
  { url, token, trustedDocuments = false }: Endpoint,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const documentId = (document.__meta__ as { hash?: string } | undefined)?.hash;
  if (trustedDocuments && !documentId) throw new Error('This document has no id: run `npm run codegen:client` (persistedDocuments) first.');
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'private-token': token },
    body: JSON.stringify(trustedDocuments ? { documentId, variables } : { query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: TResult | null; errors?: Array<{ message: string }> };
  if (body.errors?.length || !body.data) throw new Error(body.errors?.map((error) => error.message).join('; ') ?? `HTTP ${response.status}`);
  return body.data;
}

export interface FleetView {
  username: string | null;
  runners: Array<RunnerSummary & { projects: string[] }>;
}

/** The caller's first active runners, as this client shows them. */
export async function fleet(endpoint: Endpoint, first = 5): Promise<FleetView> {
  const data = await execute(endpoint, FleetQuery, { first, status: 'ACTIVE' });
  return {
    username: data.currentUser?.username ?? null,
    runners: data.ownedRunners.nodes.map((node) => ({
      // The fragment's fields are masked in the query's type: only useFragment unmasks them.
      ...useFragment(RunnerSummaryFragment, node),
      // Only project runners list projects (GitLab answers null for the others).
      projects: node.projects?.nodes.map((project) => project.fullPath) ?? [],
    })),
  };
}

/** Pauses or resumes a runner; REST's refusals are thrown. */
export async function setPaused(endpoint: Endpoint, runnerId: string, paused: boolean): Promise<RunnerSummary> {
  const { runnerUpdate } = await execute(endpoint, PauseRunnerMutation, { id: runnerId, paused });
  if (!runnerUpdate?.runner) throw new Error(runnerUpdate?.errors.join('; ') ?? 'runnerUpdate answered nothing');
  return useFragment(RunnerSummaryFragment, runnerUpdate.runner);
}

const program = process.argv[1];
if (program && pathToFileURL(program).href === import.meta.url) {
  const endpoint = {
    url: process.env['GATEWAY_URL'] ?? 'http://127.0.0.1:4000/graphql',
    token: process.env['GITLAB_TOKEN'] ?? 'glpat-demo-maintainer',
    trustedDocuments: process.env['TRUSTED_DOCUMENTS'] === 'on',
  };
  const view = await fleet(endpoint);
  console.log(`Runners of ${view.username ?? 'an anonymous caller'}:`);
  for (const runner of view.runners) {
    console.log(`  ${runner.id} ${runner.status}${runner.paused ? ' (paused)' : ''} ${runner.description ?? ''} -> ${runner.projects.join(', ') || 'no project'}`);
  }
}
