// Where and whether a caller edits a file in GitLab's Web IDE (RepositoryBlob.ideEditPath and
// canModifyBlobWithWebIde, as BlobHelper decides them), asked as GitLab's blob page asks, validated
// against the schema and run over real HTTP against the gateway and the embedded v4 server, checked
// against REST's project record (`permissions`, `can_create_merge_request_in`) and its forks, with
// the REST calls counted.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { seedPersonalFork } from '../support/forks.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { developer, maintainer, guest, outsider } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitlab';
const PROJECT_PATH = encodeURIComponent(PROJECT);

const BLOB_WEB_IDE = `
fragment BlobWebIde on RepositoryBlob {
  ideEditPath
  canModifyBlobWithWebIde
  canModifyBlob
  storedExternally
}

query blobWebIde($projectPath: ID!, $filePaths: [String!]!, $ref: String) {
  project(fullPath: $projectPath) {
    id
    repository {
      blobs(paths: $filePaths, ref: $ref) {
        nodes {
          id
          path
          ...BlobWebIde
        }
      }
    }
  }
}`;

interface BlobNode {
  id: string;
  path: string;
  ideEditPath: string | null;
  canModifyBlobWithWebIde: boolean;
  canModifyBlob: boolean;
  storedExternally: boolean;
}
type Result = { project: { id: string; repository: { blobs: { nodes: BlobNode[] } } } };
interface RestProject {
  path: string;
  permissions?: { project_access: { access_level: number } | null; group_access: { access_level: number } | null };
  can_create_merge_request_in?: boolean;
}

const LFS_POINTER = `version https://git-lfs.github.com/spec/v1\noid sha256:${'b'.repeat(64)}\nsize 2048\n`;

describe('editing a file in GitLab\'s Web IDE', () => {
  const harness = gatewayOverSimulator();
  const ask = (variables: Record<string, unknown>, token?: string) => harness.gateway.query<Result>(BLOB_WEB_IDE, { projectPath: PROJECT, filePaths: ['README.md'], ...variables }, token);
  const accessLevel = (project: RestProject) => Math.max(project.permissions?.project_access?.access_level ?? 0, project.permissions?.group_access?.access_level ?? 0);

  it('validates against the schema', () => {
    expect(validate(schema, parse(BLOB_WEB_IDE))).toEqual([]);
  });

  it.each([
    ['a maintainer', maintainer],
    // A developer may not push to the protected default branch, yet may push code to the project:
    // the Web IDE commits to a new branch.
    ['a developer', developer],
  ])('edits in the project for %s, who may push code, without asking for forks', async (_who, token) => {
    const project = await harness.oracle.get<RestProject>(`/projects/${PROJECT_PATH}`, token);
    expect(accessLevel(project)).toBeGreaterThanOrEqual(30);
    harness.simulator.resetRequests();

    const result = await ask({}, token);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.repository.blobs.nodes[0]).toMatchObject({ ideEditPath: `/-/ide/project/${PROJECT}/edit/main/-/README.md`, canModifyBlobWithWebIde: true });
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => call.includes('/forks'))).toEqual([]);
    // The project, the file, the branch for canModifyBlob and the caller once.
    expect(calls.filter((call) => call === 'GET /user')).toHaveLength(1);
    expect(calls).toHaveLength(4);
  });

  it('edits in the project for anonymous callers, who may not modify it, without a call of its own', async () => {
    harness.simulator.resetRequests();
    const result = await ask({});
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.repository.blobs.nodes[0]).toMatchObject({ ideEditPath: `/-/ide/project/${PROJECT}/edit/main/-/README.md`, canModifyBlobWithWebIde: false });
    // The project and the file only.
    expect(restCalls(harness.simulator)).toHaveLength(2);
  });

  it.each([
    ['a guest', guest, 'guest'],
    ['a non-member', outsider, 'outsider'],
  ])('sends %s, who may not push, to their fork, and lets them edit only once they own one', async (_who, token, username) => {
    const project = await harness.oracle.get<RestProject>(`/projects/${PROJECT_PATH}`, token);
    expect(accessLevel(project)).toBeLessThan(30);
    expect(project.can_create_merge_request_in).toBe(true);
    const forks = await harness.oracle.get<unknown[]>(`/projects/${PROJECT_PATH}/forks?owned=true`, token);
    expect(forks).toEqual([]);
    harness.simulator.resetRequests();

    const before = await ask({}, token);
    expect(before.errors).toBeUndefined();
    expect(before.data!.project.repository.blobs.nodes[0]).toMatchObject({ ideEditPath: `/-/ide/project/${username}/${project.path}/edit/main/-/README.md`, canModifyBlobWithWebIde: false });
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => call.endsWith('/forks'))).toHaveLength(1);
    expect(harness.simulator.requests.find((request) => request.path.endsWith('/forks'))?.query?.['owned']).toBe('true');

    seedPersonalFork(harness.simulator.state, PROJECT, username);
    const owned = await harness.oracle.get<Array<{ path_with_namespace: string }>>(`/projects/${PROJECT_PATH}/forks?owned=true`, token);
    expect(owned.map((fork) => fork.path_with_namespace)).toEqual([`${username}/${project.path}`]);
    const after = await ask({}, token);
    expect(after.errors).toBeUndefined();
    expect(after.data!.project.repository.blobs.nodes[0]).toMatchObject({ ideEditPath: `/-/ide/project/${username}/${project.path}/edit/main/-/README.md`, canModifyBlobWithWebIde: true });
  });

  it('lets nobody who may not push edit an archived project\'s file, and sends them to their fork', async () => {
    const archived = 'gitlab-org/gitlab-foss';
    const project = await harness.oracle.get<RestProject & { archived: boolean }>(`/projects/${encodeURIComponent(archived)}`, maintainer);
    expect(project.archived).toBe(true);
    const result = await harness.gateway.query<Result>(BLOB_WEB_IDE, { projectPath: archived, filePaths: ['README.md'] }, maintainer);
    expect(result.errors).toBeUndefined();
    // An archived project takes no pushes: push_code is false even for its maintainer, who owns no fork of it.
    expect(result.data!.project.repository.blobs.nodes[0]).toMatchObject({ ideEditPath: `/-/ide/project/maintainer/${project.path}/edit/main/-/README.md`, canModifyBlobWithWebIde: false });
  });

  it('escapes the ref and path as GitLab\'s encode_ide_path does, and refuses the IDE for a file stored in LFS', async () => {
    const created = await fetch(`${harness.simulator.url}/projects/${PROJECT_PATH}/repository/commits`, {
      method: 'POST',
      headers: { 'private-token': developer, 'content-type': 'application/json' },
      body: JSON.stringify({
        branch: 'feature/web+ide',
        start_branch: 'main',
        commit_message: 'Files whose names need escaping, and an LFS pointer',
        actions: [
          { action: 'create', file_path: 'docs/a b#c%.md', content: 'hello\n' },
          { action: 'create', file_path: 'assets/model.bin', content: LFS_POINTER },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const result = await ask({ filePaths: ['docs/a b#c%.md', 'assets/model.bin'], ref: 'feature/web+ide' }, maintainer);
    expect(result.errors).toBeUndefined();
    const [text, lfs] = result.data!.project.repository.blobs.nodes;
    expect(text).toMatchObject({ ideEditPath: `/-/ide/project/${PROJECT}/edit/feature/web%2Bide/-/docs/a%20b%23c%25.md`, canModifyBlobWithWebIde: true });
    expect(lfs).toMatchObject({ storedExternally: true, ideEditPath: `/-/ide/project/${PROJECT}/edit/feature/web%2Bide/-/assets/model.bin`, canModifyBlobWithWebIde: false, canModifyBlob: false });
  });
});
