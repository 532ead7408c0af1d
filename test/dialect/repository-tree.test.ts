// Repository.tree(recursive:) as GitLab's repository browser asks it: the document validates
// against the schema and runs over real HTTP against the gateway and the embedded v4 server. The
// argument only changes a tree's entries, which are not served, so a recursive tree's last commit
// is the directory's own, checked against REST's commit list for the path, at one REST call.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { developer } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitlab';
const PROJECT_PATH = encodeURIComponent(PROJECT);

const PATH_LAST_COMMIT = `
fragment TreeLastCommitFragment on Commit {
  id
  sha
  title
  webPath
}

query pathLastCommit($projectPath: ID!, $path: String, $ref: String!, $recursive: Boolean) {
  project(fullPath: $projectPath) {
    id
    repository {
      tree(path: $path, ref: $ref, recursive: $recursive) {
        lastCommit { ...TreeLastCommitFragment }
      }
    }
  }
}`;

interface RestTreeEntry {
  path: string;
  type: string;
}
type Result = { project: { repository: { tree: { lastCommit: { sha: string; title: string } | null } } } };

describe('Repository.tree(recursive:) in GitLab\'s style', () => {
  const harness = gatewayOverSimulator();

  it('validates against the schema', () => {
    expect(validate(schema, parse(PATH_LAST_COMMIT))).toEqual([]);
  });

  it.each([true, false])('answers a directory\'s last commit with recursive: %s, as REST\'s commit list for the path, in one call', async (recursive) => {
    // A directory REST's tree lists with `recursive`: a nested one, whose path has a slash.
    const entries = await harness.oracle.all<RestTreeEntry>(`/projects/${PROJECT_PATH}/repository/tree?recursive=true&ref=main`, developer);
    const directory = entries.find((entry) => entry.type === 'tree' && entry.path.includes('/')) ?? entries.find((entry) => entry.type === 'tree')!;
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<Result>(PATH_LAST_COMMIT, { projectPath: PROJECT, path: directory.path, ref: 'main', recursive }, developer);
    expect(result.errors).toBeUndefined();
    const commitCalls = restCalls(harness.simulator).filter((call) => call.includes('/repository/'));
    // GET .../repository/commits?path=&per_page=1, and no read of the tree itself.
    expect(commitCalls).toHaveLength(1);
    expect(commitCalls[0]).toMatch(/^GET \/projects\/[^/]+\/repository\/commits$/);

    const [rest] = await harness.oracle.get<Array<{ id: string; title: string }>>(
      `/projects/${PROJECT_PATH}/repository/commits?ref_name=main&path=${encodeURIComponent(directory.path)}&per_page=1`,
      developer,
    );
    expect(result.data!.project.repository.tree.lastCommit).toMatchObject({ sha: rest!.id, title: rest!.title });
  });
});
