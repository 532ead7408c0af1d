// Files of a repository as GitLab's blob page asks them (`Repository.blobs` by path and ref, with
// the blob's page paths, content, LFS and editing abilities), validated against the schema and run
// over real HTTP against the gateway and the embedded v4 server, checked against REST's
// `GET .../repository/files/:file_path` and `GET .../repository/branches/:branch` with the REST
// calls counted.
import { createHash } from 'node:crypto';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { developer, maintainer } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitlab';
const PROJECT_PATH = encodeURIComponent(PROJECT);

const BLOB_PAGE = `
fragment BlobPaths on RepositoryBlob {
  webPath
  webUrl
  editBlobPath
  rawPath
  replacePath
  blamePath
  historyPath
  permalinkPath
  findFilePath
  projectBlobPathRoot
}

query blobPage($projectPath: ID!, $filePaths: [String!]!, $ref: String, $refType: RefType) {
  project(fullPath: $projectPath) {
    id
    repository {
      empty
      blobs(paths: $filePaths, ref: $ref, refType: $refType) {
        nodes {
          id
          oid
          name
          path
          mode
          size
          rawSize
          rawBlob
          rawTextBlob
          lfsOid
          storedExternally
          externalStorage
          archived
          canModifyBlob
          canCurrentUserPushToBranch
          ...BlobPaths
        }
        pageInfo {
          hasNextPage
        }
      }
    }
  }
}`;

// The editor's question only: may the caller edit the file, and where.
const BLOB_EDIT = `
query blobEditAbilities($projectPath: ID!, $filePath: String!, $ref: String!, $refType: RefType) {
  project(fullPath: $projectPath) {
    id
    repository {
      blobs(paths: [$filePath], ref: $ref, refType: $refType) {
        nodes {
          id
          canModifyBlob
          canCurrentUserPushToBranch
          editBlobPath
        }
      }
    }
  }
}`;

interface RestFile {
  file_name: string;
  file_path: string;
  size: number;
  encoding: string;
  content: string;
  content_sha256: string;
  blob_id: string;
  commit_id: string;
  execute_filemode: boolean;
}
interface BlobNode {
  id: string;
  oid: string;
  name: string;
  path: string;
  mode: string;
  size: string;
  rawSize: string;
  rawBlob: string;
  rawTextBlob: string | null;
  lfsOid: string | null;
  storedExternally: boolean;
  externalStorage: string | null;
  archived: boolean;
  canModifyBlob: boolean;
  canCurrentUserPushToBranch: boolean;
  webPath: string;
  webUrl: string;
  editBlobPath: string;
  rawPath: string;
  replacePath: string;
  blamePath: string;
  historyPath: string;
  permalinkPath: string;
  findFilePath: string;
  projectBlobPathRoot: string;
}
type PageResult = { project: { id: string; repository: { empty: boolean; blobs: { nodes: BlobNode[]; pageInfo: { hasNextPage: boolean } } } } };
type EditResult = { project: { repository: { blobs: { nodes: Array<Pick<BlobNode, 'id' | 'canModifyBlob' | 'canCurrentUserPushToBranch' | 'editBlobPath'>> } } } };

const LFS_OID = 'a'.repeat(64);
const LFS_POINTER = `version https://git-lfs.github.com/spec/v1\noid sha256:${LFS_OID}\nsize 1048576\n`;
const BINARY = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0xff]);

describe('a repository\'s files in GitLab\'s style', () => {
  const harness = gatewayOverSimulator();
  const file = (path: string, ref: string, token = developer) =>
    harness.oracle.get<RestFile>(`/projects/${PROJECT_PATH}/repository/files/${encodeURIComponent(path)}?ref=${encodeURIComponent(ref)}`, token);

  it('validates against the schema', () => {
    expect(validate(schema, parse(BLOB_PAGE))).toEqual([]);
    expect(validate(schema, parse(BLOB_EDIT))).toEqual([]);
  });

  it('answers the files REST has at the default branch in the order asked, skipping a missing one, with one call per path', async () => {
    const [readme, setup] = await Promise.all([file('README.md', 'main'), file('bin/setup', 'main')]);
    const project = await harness.oracle.get<{ id: number; web_url: string }>(`/projects/${PROJECT_PATH}`, developer);
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<PageResult>(BLOB_PAGE, { projectPath: PROJECT, filePaths: ['bin/setup', 'no/such/file.txt', 'README.md'] }, maintainer);
    expect(result.errors).toBeUndefined();
    const { nodes } = result.data!.project.repository.blobs;
    expect(nodes.map((node) => node.path)).toEqual(['bin/setup', 'README.md']);
    for (const [node, rest] of [[nodes[0]!, setup], [nodes[1]!, readme]] as const) {
      const text = Buffer.from(rest.content, 'base64').toString('utf8');
      expect(createHash('sha256').update(text).digest('hex')).toBe(rest.content_sha256);
      expect(node).toEqual({
        id: `gid://gitlab/Blob/${rest.blob_id}`,
        oid: rest.blob_id,
        name: rest.file_name,
        path: rest.file_path,
        mode: rest.execute_filemode ? '100755' : '100644',
        size: String(rest.size),
        rawSize: String(rest.size),
        rawBlob: text,
        rawTextBlob: text,
        lfsOid: null,
        storedExternally: false,
        externalStorage: null,
        archived: false,
        // A maintainer may push to the protected default branch.
        canModifyBlob: true,
        canCurrentUserPushToBranch: true,
        webPath: `/${PROJECT}/-/blob/main/${rest.file_path}`,
        webUrl: `${project.web_url}/-/blob/main/${rest.file_path}`,
        editBlobPath: `/${PROJECT}/-/edit/main/${rest.file_path}`,
        rawPath: `/${PROJECT}/-/raw/main/${rest.file_path}`,
        replacePath: `/${PROJECT}/-/update/main/${rest.file_path}`,
        blamePath: `/${PROJECT}/-/blame/main/${rest.file_path}`,
        historyPath: `/${PROJECT}/-/commits/main/${rest.file_path}`,
        permalinkPath: `/${PROJECT}/-/blob/${rest.commit_id}/${rest.file_path}`,
        findFilePath: `/${PROJECT}/-/find_file/main`,
        projectBlobPathRoot: `/${PROJECT}/-/blob/main`,
      });
    }
    expect(nodes[0]!.mode).toBe('100755');

    // The project once (its field, `empty`, the default branch and page URLs), each path once, and
    // the branch once for both files' abilities.
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => call.includes('/repository/files/'))).toHaveLength(3);
    expect(calls.filter((call) => call.includes('/repository/branches/'))).toHaveLength(1);
    expect(calls).toHaveLength(5);
  });

  it('asks REST for the full ref name with refType, and the page paths carry the ref type', async () => {
    const result = await harness.gateway.query<PageResult>(BLOB_PAGE, { projectPath: PROJECT, filePaths: ['README.md'], ref: 'main', refType: 'HEADS' }, developer);
    expect(result.errors).toBeUndefined();
    const [node] = result.data!.project.repository.blobs.nodes;
    expect(node!.webPath).toBe(`/${PROJECT}/-/blob/main/README.md?ref_type=heads`);
    expect(node!.findFilePath).toBe(`/${PROJECT}/-/find_file/main?ref_type=heads`);
    expect(node!.permalinkPath).not.toContain('ref_type');
    const files = harness.simulator.requests.filter((request) => request.path.includes('/repository/files/'));
    expect(files.map((request) => request.query?.['ref'])).toEqual(['refs/heads/main']);
  });

  describe('who may edit a file: GitLab\'s can_modify_blob? and can_current_user_push_to_branch?', () => {
    it('refuses a developer the protected default branch, as REST\'s can_push does', async () => {
      const branch = await harness.oracle.get<{ can_push: boolean }>(`/projects/${PROJECT_PATH}/repository/branches/main`, developer);
      const result = await harness.gateway.query<EditResult>(BLOB_EDIT, { projectPath: PROJECT, filePath: 'README.md', ref: 'main' }, developer);
      expect(result.errors).toBeUndefined();
      expect(branch.can_push).toBe(false);
      expect(result.data!.project.repository.blobs.nodes[0]).toMatchObject({ canModifyBlob: false, canCurrentUserPushToBranch: false, editBlobPath: `/${PROJECT}/-/edit/main/README.md` });
    });

    it('gives anonymous callers no push, without asking REST for the branch', async () => {
      const result = await harness.gateway.query<EditResult>(BLOB_EDIT, { projectPath: PROJECT, filePath: 'README.md', ref: 'main' });
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.repository.blobs.nodes[0]).toMatchObject({ canModifyBlob: false, canCurrentUserPushToBranch: false });
      expect(restCalls(harness.simulator).filter((call) => call.includes('/repository/branches/'))).toEqual([]);
    });

    it('gives no push at a ref that is no branch (a commit SHA): REST answers 404 for the branch', async () => {
      const readme = await file('README.md', 'main');
      const result = await harness.gateway.query<EditResult>(BLOB_EDIT, { projectPath: PROJECT, filePath: 'README.md', ref: readme.commit_id }, maintainer);
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.repository.blobs.nodes[0]).toMatchObject({ canModifyBlob: false, canCurrentUserPushToBranch: false });
    });

    it('gives no push in an archived project, whatever the caller\'s level', async () => {
      const archived = 'gitlab-org/gitlab-foss';
      const project = await harness.oracle.get<{ archived: boolean; default_branch: string }>(`/projects/${encodeURIComponent(archived)}`, maintainer);
      expect(project.archived).toBe(true);
      const result = await harness.gateway.query<PageResult>(BLOB_PAGE, { projectPath: archived, filePaths: ['README.md'] }, maintainer);
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.repository.blobs.nodes[0]).toMatchObject({ archived: true, canModifyBlob: false, canCurrentUserPushToBranch: false });
    });
  });

  it('tells an LFS pointer and a binary file as GitLab does: stored externally, the object\'s size, no text for binary', async () => {
    const created = await fetch(`${harness.simulator.url}/projects/${PROJECT_PATH}/repository/commits`, {
      method: 'POST',
      headers: { 'private-token': developer, 'content-type': 'application/json' },
      body: JSON.stringify({
        branch: 'blob-kinds',
        start_branch: 'main',
        commit_message: 'An LFS pointer and a binary file',
        actions: [
          { action: 'create', file_path: 'assets/logo.psd', content: LFS_POINTER },
          { action: 'create', file_path: 'assets/icon.png', content: BINARY.toString('base64'), encoding: 'base64' },
        ],
      }),
    });
    expect(created.status).toBe(201);
    const [pointer, binary] = await Promise.all([file('assets/logo.psd', 'blob-kinds'), file('assets/icon.png', 'blob-kinds')]);
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<PageResult>(BLOB_PAGE, { projectPath: PROJECT, filePaths: ['assets/logo.psd', 'assets/icon.png'], ref: 'blob-kinds' }, developer);
    expect(result.errors).toBeUndefined();
    const [lfs, png] = result.data!.project.repository.blobs.nodes;
    expect(lfs).toMatchObject({
      oid: pointer.blob_id,
      lfsOid: LFS_OID,
      storedExternally: true,
      externalStorage: 'lfs',
      size: String(pointer.size),
      rawSize: '1048576',
      rawTextBlob: LFS_POINTER,
      // The developer may push to the new branch, yet not edit a file stored in LFS.
      canCurrentUserPushToBranch: true,
      canModifyBlob: false,
    });
    expect(png).toMatchObject({ oid: binary.blob_id, size: String(BINARY.length), rawTextBlob: null, lfsOid: null, storedExternally: false, canModifyBlob: true });
    expect(restCalls(harness.simulator)).toHaveLength(4);
  });

  it('answers no files at a ref that names nothing (REST\'s 404 Commit Not Found)', async () => {
    const result = await harness.gateway.query<PageResult>(BLOB_PAGE, { projectPath: PROJECT, filePaths: ['README.md'], ref: 'no-such-branch' }, developer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.project.repository.blobs.nodes).toEqual([]);
  });

  it.each([
    ['more than 100 paths', { filePaths: Array.from({ length: 101 }, (_, i) => `file-${i}.txt`) }, 'paths'],
    ['a ref git would refuse', { filePaths: ['README.md'], ref: 'main..other' }, 'ref'],
    ['an already qualified ref', { filePaths: ['README.md'], ref: 'refs/heads/main' }, 'ref'],
  ])('refuses %s before any file is read', async (_name, variables, argument) => {
    const result = await harness.gateway.query<PageResult>(BLOB_PAGE, { projectPath: PROJECT, ...variables }, developer);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toMatch(argument === 'ref' ? /Ref is not valid/ : /paths/);
    expect(restCalls(harness.simulator).filter((call) => call.includes('/repository/'))).toEqual([]);
  });
});
