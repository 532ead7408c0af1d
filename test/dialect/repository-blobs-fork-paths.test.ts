// The fork paths of GitLab's blob page (RepositoryBlob.forkAndEditPath, ideForkAndEditPath and
// forkAndViewPath, as BlobPresenter builds them with fork_path_for_current_user), asked as GitLab's
// blob page asks, validated against the schema and run over real HTTP against the gateway and the
// embedded v4 server, checked against REST's personal namespace of the caller, with the REST calls counted.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { developer, guest } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitlab';
const FORK_CREATED_NOTICE =
  "You're not allowed to make changes to this project directly. A fork of this project has been created that you can make changes in, so you can submit a merge request.";

const BLOB_FORK_PATHS = `
fragment BlobForkPaths on RepositoryBlob {
  editBlobPath
  ideEditPath
  webPath
  forkAndEditPath
  ideForkAndEditPath
  forkAndViewPath
}

query blobForkPaths($projectPath: ID!, $filePaths: [String!]!) {
  project(fullPath: $projectPath) {
    id
    repository {
      blobs(paths: $filePaths) {
        nodes {
          id
          ...BlobForkPaths
        }
      }
    }
  }
}`;

type BlobNode = Record<'editBlobPath' | 'ideEditPath' | 'webPath' | 'forkAndEditPath' | 'ideForkAndEditPath' | 'forkAndViewPath', string | null>;
type Result = { project: { repository: { blobs: { nodes: BlobNode[] } } } };

/** What GitLab's fork page reads of the path: the project's forks page, the namespace and where to continue. */
function forkTarget(path: string) {
  const url = new URL(path, 'http://gitlab.test');
  return { page: url.pathname, namespaceKey: url.searchParams.get('namespace_key'), to: url.searchParams.get('continue[to]'), notice: url.searchParams.get('continue[notice]') };
}

describe("GitLab's fork-and-edit paths of a file", () => {
  const harness = gatewayOverSimulator();
  const ask = (token?: string) => harness.gateway.query<Result>(BLOB_FORK_PATHS, { projectPath: PROJECT, filePaths: ['README.md', 'Gemfile'] }, token);

  it('validates against the schema', () => {
    expect(validate(schema, parse(BLOB_FORK_PATHS))).toEqual([]);
  });

  it.each([
    // GitLab answers the paths to every signed-in caller, whether or not they may push.
    ['a developer, who may push', developer],
    ['a guest, who may not', guest],
  ])("forks into the caller's personal namespace and continues to each page for %s, the namespace read once", async (_who, token) => {
    const user = await harness.oracle.get<{ username: string }>('/user', token);
    const namespace = await harness.oracle.get<{ id: number; kind: string }>(`/namespaces/${user.username}`, token);
    expect(namespace.kind).toBe('user');
    harness.simulator.resetRequests();

    const result = await ask(token);
    expect(result.errors).toBeUndefined();
    const nodes = result.data!.project.repository.blobs.nodes;
    expect(nodes.length).toBeGreaterThan(0);
    for (const blob of nodes) {
      const expected = (to: string | null) => ({ page: `/${PROJECT}/-/forks`, namespaceKey: String(namespace.id), to, notice: FORK_CREATED_NOTICE });
      expect(forkTarget(blob.forkAndEditPath!)).toEqual(expected(blob.editBlobPath));
      expect(forkTarget(blob.ideForkAndEditPath!)).toEqual(expected(blob.ideEditPath));
      expect(forkTarget(blob.forkAndViewPath!)).toEqual(expected(blob.webPath));
      // Rails' to_query: sorted pairs, CGI-escaped.
      expect(blob.forkAndViewPath).toMatch(/^[^?]+\?continue%5Bnotice%5D=You%27re\+not\+allowed.*&continue%5Bnotice_now%5D=.*&continue%5Bto%5D=%2Fgitlab-org%2Fgitlab%2F-%2Fblob%2F.*&namespace_key=\d+$/);
    }
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => call === 'GET /user')).toHaveLength(1);
    expect(calls.filter((call) => call.startsWith('GET /namespaces/'))).toEqual([`GET /namespaces/${user.username}`]);
  });

  it('answers null to anonymous callers, who have no namespace, without asking for one', async () => {
    harness.simulator.resetRequests();
    const result = await ask();
    expect(result.errors).toBeUndefined();
    for (const blob of result.data!.project.repository.blobs.nodes) {
      expect(blob).toMatchObject({ forkAndEditPath: null, ideForkAndEditPath: null, forkAndViewPath: null });
    }
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => call === 'GET /user' || call.startsWith('GET /namespaces/'))).toEqual([]);
  });
});
