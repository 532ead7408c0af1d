// A tree's entries as GitLab's repository file browser asks them (its files document's shape: the
// three connections with an Entry fragment, webPath, the submodules' links, lfsOid behind a
// variable), validated against the schema and run over real HTTP against the gateway and the
// embedded v4 server, checked against REST's tree listing with the REST calls counted.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { withFlatPaths } from '../../src/resolvers/commits/tree-entries.js';
import { submoduleLinks } from '../../src/resolvers/commits/submodule-links.js';
import { lfsOidOf } from '../../src/resolvers/commits/entry-types.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { developer } = DEMO_TOKENS;
const schema = createExecutableSchema();
const PROJECT = 'gitlab-org/gitlab';
const PROJECT_PATH = encodeURIComponent(PROJECT);

const TREE_FILES = `
fragment PageInfo on PageInfo {
  hasNextPage
  hasPreviousPage
  startCursor
  endCursor
}

fragment TreeEntry on Entry {
  id
  sha
  name
  flatPath
  type
}

query treeFiles($projectPath: ID!, $path: String, $ref: String!, $refType: RefType, $pageSize: Int!, $nextPageCursor: String, $vueLfsEnabled: Boolean = false) {
  project(fullPath: $projectPath) {
    repository {
      empty
      tree(path: $path, ref: $ref, refType: $refType) {
        trees(first: $pageSize, after: $nextPageCursor) {
          edges { node { ...TreeEntry webPath } }
          pageInfo { ...PageInfo }
        }
        submodules(first: $pageSize, after: $nextPageCursor) {
          edges { node { ...TreeEntry webUrl treeUrl } }
          pageInfo { ...PageInfo }
        }
        blobs(first: $pageSize, after: $nextPageCursor) {
          edges { node { ...TreeEntry webPath mode lfsOid @include(if: $vueLfsEnabled) } }
          pageInfo { ...PageInfo }
        }
      }
    }
  }
}`;

interface RestEntry {
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  path: string;
  mode: string;
}
interface EntryNode {
  id: string;
  sha: string;
  name: string;
  flatPath: string;
  type: string;
  webPath?: string;
  webUrl?: string | null;
  treeUrl?: string | null;
  mode?: string;
  lfsOid?: string | null;
}
type Connection = { edges: Array<{ node: EntryNode }>; pageInfo: { hasNextPage: boolean } };
type Result = { project: { repository: { empty: boolean; tree: { trees: Connection; submodules: Connection; blobs: Connection } } } };

const nodes = (connection: Connection) => connection.edges.map((edge) => edge.node);

describe('a tree\'s entries in GitLab\'s style', () => {
  const harness = gatewayOverSimulator();

  it('validates against the schema', () => {
    expect(validate(schema, parse(TREE_FILES))).toEqual([]);
  });

  it('lists the root\'s directories, files and submodules as REST does, from one recursive listing and the project record', async () => {
    const own = await harness.oracle.all<RestEntry>(`/projects/${PROJECT_PATH}/repository/tree?ref=main`, developer);
    const everything = await harness.oracle.all<RestEntry>(`/projects/${PROJECT_PATH}/repository/tree?ref=main&recursive=true`, developer);
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<Result>(TREE_FILES, { projectPath: PROJECT, path: '', ref: 'main', pageSize: 100 }, developer);
    expect(result.errors).toBeUndefined();
    const { repository } = result.data!.project;
    expect(repository.empty).toBe(false);
    const byType = (type: string) => own.filter((entry) => entry.type === type);
    expect(nodes(repository.tree.trees).map((node) => node.sha)).toEqual(byType('tree').map((entry) => entry.id));
    expect(nodes(repository.tree.blobs).map((node) => [node.name, node.mode])).toEqual(byType('blob').map((entry) => [entry.name, entry.mode]));
    expect(nodes(repository.tree.submodules).map((node) => node.sha)).toEqual(byType('commit').map((entry) => entry.id));
    for (const node of nodes(repository.tree.trees)) {
      expect(node.id).toBe(`gid://gitlab/Gitlab::Graphql::Representation::TreeEntry/${node.sha}`);
      expect(node.type).toBe('tree');
      expect(node.webPath).toBe(`/${PROJECT}/-/tree/main/${node.name}`);
      // GitLab's flat path, derived here from REST's recursive listing by hand.
      let flat = node.name;
      for (let depth = 1; depth < 10; depth++) {
        const below = everything.filter((entry) => entry.path.startsWith(`${flat}/`) && !entry.path.slice(flat.length + 1).includes('/'));
        if (below.length !== 1 || below[0]!.type !== 'tree') break;
        flat = below[0]!.path;
      }
      expect(node.flatPath).toBe(flat);
    }
    for (const node of nodes(repository.tree.blobs)) expect(node.webPath).toBe(`/${PROJECT}/-/blob/main/${encodeURIComponent(node.name)}`);

    // The project (read once for the project field, `empty` and the page URLs) and the recursive listing.
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => call.endsWith('/repository/tree'))).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  it('links a submodule to its project from .gitmodules, as GitLab does for a relative URL', async () => {
    const own = await harness.oracle.all<RestEntry>(`/projects/${PROJECT_PATH}/repository/tree?ref=main&path=vendor`, developer);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<Result>(TREE_FILES, { projectPath: PROJECT, path: 'vendor', ref: 'main', pageSize: 100 }, developer);
    expect(result.errors).toBeUndefined();
    // The demo project's submodule: `../gitaly.git` from gitlab-org/gitlab, at the gitlink's commit.
    const [submodule] = nodes(result.data!.project.repository.tree.submodules);
    const rest = own.find((entry) => entry.type === 'commit')!;
    expect(submodule).toMatchObject({
      id: `gid://gitlab/Gitlab::Graphql::Representation::SubmoduleTreeEntry/${rest.id}`,
      sha: rest.id,
      name: 'gitaly',
      type: 'commit',
      flatPath: 'vendor/gitaly',
      webUrl: '/gitlab-org/gitaly',
      treeUrl: `/gitlab-org/gitaly/-/tree/${rest.id}`,
    });
    // The project, the directory's recursive listing, the root's listing and the `.gitmodules` blob.
    const calls = restCalls(harness.simulator);
    expect(calls.filter((call) => call.endsWith('/repository/tree'))).toHaveLength(2);
    expect(calls.filter((call) => call.includes('/repository/blobs/'))).toHaveLength(1);
    expect(calls).toHaveLength(4);
  });

  it('pages a directory\'s files with cursors, and asks REST for the full ref name with refType', async () => {
    const own = await harness.oracle.all<RestEntry>(`/projects/${PROJECT_PATH}/repository/tree?ref=refs%2Fheads%2Fmain`, developer);
    const files = own.filter((entry) => entry.type === 'blob');
    const first = await harness.gateway.query<Result>(TREE_FILES, { projectPath: PROJECT, path: '', ref: 'main', refType: 'HEADS', pageSize: 2 }, developer);
    expect(first.errors).toBeUndefined();
    const page = first.data!.project.repository.tree.blobs;
    expect(nodes(page).map((node) => node.sha)).toEqual(files.slice(0, 2).map((entry) => entry.id));
    expect(page.pageInfo.hasNextPage).toBe(files.length > 2);
    expect(nodes(page)[0]!.webPath).toBe(`/${PROJECT}/-/blob/main/${encodeURIComponent(files[0]!.name)}?ref_type=heads`);
    expect(harness.simulator.requests.filter((request) => request.path.endsWith('/repository/tree')).map((request) => request.query?.['ref'])).toEqual(['refs/heads/main']);
  });

  it.each([
    ['a ref that names nothing', { path: '', ref: 'no-such-branch' }],
    ['a path that is no directory', { path: 'no/such/directory', ref: 'main' }],
  ])('answers no entries, as GitLab does, for %s (REST\'s 404)', async (_name, where) => {
    const result = await harness.gateway.query<Result>(TREE_FILES, { projectPath: PROJECT, ...where, pageSize: 20 }, developer);
    expect(result.errors).toBeUndefined();
    const { tree } = result.data!.project.repository;
    expect([tree.trees, tree.blobs, tree.submodules].map((connection) => connection.edges)).toEqual([[], [], []]);
  });

  it('never reads a large tree whole for flat paths: past the recursive listing\'s bound it probes each subdirectory of the page', async () => {
    // A directory with 320 files beside one chain of single directories (a/b/c) and one plain one.
    const files = Array.from({ length: 320 }, (_, i) => ({ action: 'create', file_path: `big/file-${String(i).padStart(3, '0')}.txt`, content: `${i}\n` }));
    const created = await fetch(`${harness.simulator.url}/projects/${PROJECT_PATH}/repository/commits`, {
      method: 'POST',
      headers: { 'private-token': developer, 'content-type': 'application/json' },
      body: JSON.stringify({
        branch: 'big-tree',
        start_branch: 'main',
        commit_message: 'A directory larger than three pages of the recursive listing',
        actions: [...files, { action: 'create', file_path: 'big/a/b/c/deep.txt', content: 'deep\n' }, { action: 'create', file_path: 'big/a/b/c/other.txt', content: 'other\n' }, { action: 'create', file_path: 'big/plain/x.txt', content: 'x\n' }, { action: 'create', file_path: 'big/plain/y.txt', content: 'y\n' }],
      }),
    });
    expect(created.status).toBe(201);
    const own = await harness.oracle.all<RestEntry>(`/projects/${PROJECT_PATH}/repository/tree?ref=big-tree&path=big`, developer);
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<Result>(TREE_FILES, { projectPath: PROJECT, path: 'big', ref: 'big-tree', pageSize: 100 }, developer);
    expect(result.errors).toBeUndefined();
    const { tree } = result.data!.project.repository;
    expect(nodes(tree.trees).map((node) => [node.name, node.flatPath])).toEqual([['a', 'big/a/b/c'], ['plain', 'big/plain']]);
    expect(nodes(tree.blobs).map((node) => node.sha)).toEqual(own.filter((entry) => entry.type === 'blob').slice(0, 100).map((entry) => entry.id));

    const listings = harness.simulator.requests.filter((request) => request.path.endsWith('/repository/tree'));
    // The recursive listing stops at its first page, whose X-Total says it holds more than three pages.
    expect(listings.filter((request) => request.query?.['recursive'] === 'true')).toHaveLength(1);
    // The directory itself, every page of it (322 entries: 4 pages of 100)...
    expect(listings.filter((request) => request.query?.['path'] === 'big' && request.query?.['recursive'] === undefined)).toHaveLength(4);
    // ...and the heads of its subdirectories: a, a/b, a/b/c (which holds two files) and plain.
    const probes = listings.filter((request) => request.query?.['per_page'] === '2').map((request) => request.query?.['path']);
    expect(probes.sort()).toEqual(['big/a', 'big/a/b', 'big/a/b/c', 'big/plain']);
  });

  it('answers an LFS pointer\'s object id, one REST blob read per file, only when asked', async () => {
    const oid = 'a'.repeat(64);
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize 1234\n`;
    const created = await fetch(`${harness.simulator.url}/projects/${PROJECT_PATH}/repository/commits`, {
      method: 'POST',
      headers: { 'private-token': developer, 'content-type': 'application/json' },
      body: JSON.stringify({ branch: 'lfs-demo', start_branch: 'main', commit_message: 'Track a design in LFS', actions: [{ action: 'create', file_path: 'designs/logo.psd', content: pointer }] }),
    });
    expect(created.status).toBe(201);
    harness.simulator.resetRequests();

    const result = await harness.gateway.query<Result>(TREE_FILES, { projectPath: PROJECT, path: 'designs', ref: 'lfs-demo', pageSize: 20, vueLfsEnabled: true }, developer);
    expect(result.errors).toBeUndefined();
    const [blob] = nodes(result.data!.project.repository.tree.blobs);
    expect(blob).toMatchObject({ name: 'logo.psd', flatPath: 'designs/logo.psd', lfsOid: oid, webPath: `/${PROJECT}/-/blob/lfs-demo/designs/logo.psd` });
    expect(restCalls(harness.simulator).filter((call) => call.includes('/repository/blobs/'))).toHaveLength(1);
  });
});

const PAGINATED_TREE = `
query paginatedTreePage($fullPath: ID!, $path: String!, $ref: String!, $first: Int, $after: String) {
  project(fullPath: $fullPath) {
    id
    repository {
      paginatedTree(path: $path, ref: $ref, first: $first, after: $after) {
        nodes {
          __typename
          permalinkPath
          trees { nodes { path flatPath } }
          blobs { nodes { path } }
          submodules { nodes { path } }
        }
        pageInfo { hasNextPage endCursor }
      }
    }
  }
}`;

type PaginatedResult = {
  project: {
    repository: {
      paginatedTree: {
        nodes: Array<{ permalinkPath: string | null; trees: { nodes: Array<{ path: string; flatPath: string }> }; blobs: { nodes: Array<{ path: string }> }; submodules: { nodes: Array<{ path: string }> } }>;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      };
    };
  };
};

describe('Repository.paginatedTree in GitLab\'s style', () => {
  const harness = gatewayOverSimulator();

  it('validates against the schema', () => {
    expect(validate(schema, parse(PAGINATED_TREE))).toEqual([]);
  });

  it('pages the directory\'s entries of every type in REST\'s order, one listing for every page of a request, with a permalink at the ref\'s commit', async () => {
    const own = await harness.oracle.all<RestEntry>(`/projects/${PROJECT_PATH}/repository/tree?ref=main`, developer);
    const [head] = await harness.oracle.get<Array<{ id: string }>>(`/projects/${PROJECT_PATH}/repository/commits?ref_name=main&per_page=1`, developer);
    const seen: string[] = [];
    let after: string | null = null;
    for (let round = 0; round < own.length; round++) {
      harness.simulator.resetRequests();
      const result: { data?: PaginatedResult | null; errors?: unknown } = await harness.gateway.query<PaginatedResult>(PAGINATED_TREE, { fullPath: PROJECT, path: '', ref: 'main', first: 3, after }, developer);
      expect(result.errors).toBeUndefined();
      const connection = result.data!.project.repository.paginatedTree;
      const [tree] = connection.nodes;
      expect(tree!.permalinkPath).toBe(`/${PROJECT}/-/tree/${head!.id}`);
      seen.push(...tree!.trees.nodes.map((node) => node.path), ...tree!.blobs.nodes.map((node) => node.path), ...tree!.submodules.nodes.map((node) => node.path));
      // The project, the recursive listing (flatPath is selected) and the ref's commit.
      const calls = restCalls(harness.simulator);
      expect(calls.filter((call) => call.endsWith('/repository/tree'))).toHaveLength(1);
      expect(calls).toHaveLength(3);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen).toEqual(own.map((entry) => entry.path));
  });
});

describe('flat paths as Gitaly computes them', () => {
  const entry = (path: string, type: 'tree' | 'blob' | 'commit' = 'tree') => ({ id: path, name: path.split('/').pop()!, type, path, mode: type === 'tree' ? '040000' : '100644' });

  it('collapses directories that hold only one directory, and stops at a file, a submodule or two entries', () => {
    const listing = [
      entry('a'), entry('a/b'), entry('a/b/c'), entry('a/b/c/file.txt', 'blob'),
      entry('d'), entry('d/e'), entry('d/f'),
      entry('g'), entry('g/sub', 'commit'),
      entry('readme.md', 'blob'),
    ];
    expect(withFlatPaths('', listing).map((item) => [item.path, item.flatPath])).toEqual([
      ['a', 'a/b/c'], ['d', 'd'], ['g', 'g'], ['readme.md', 'readme.md'],
    ]);
    expect(withFlatPaths('a', listing).map((item) => item.flatPath)).toEqual(['a/b/c']);
  });

  it('descends at most nine levels', () => {
    const chain = Array.from({ length: 12 }, (_, index) => entry(Array.from({ length: index + 1 }, (__, level) => `l${level}`).join('/')));
    expect(withFlatPaths('', chain)[0]!.flatPath).toBe(chain[9]!.path);
  });
});

describe('submodule links as GitLab\'s SubmoduleHelper derives them', () => {
  const project = { web_url: 'https://gitlab.example.com/g1/p1', ssh_url_to_repo: 'git@gitlab.example.com:g1/p1.git', path_with_namespace: 'g1/p1' };
  it.each([
    ['../p2.git', '/g1/p2', '/g1/p2/-/tree/abc'],
    ['../g2/p3.git', '/g1/g2/p3', '/g1/g2/p3/-/tree/abc'],
    ['../../g3/g4/p4.git', '/g3/g4/p4', '/g3/g4/p4/-/tree/abc'],
    ['./p5.git', null, null],
    ['https://gitlab.example.com/g5/p6.git', '/g5/p6', '/g5/p6/-/tree/abc'],
    ['git@gitlab.example.com:g5/p6.git', '/g5/p6', '/g5/p6/-/tree/abc'],
    ['https://github.com/org/lib.git', 'https://github.com/org/lib', 'https://github.com/org/lib/tree/abc'],
    ['git@gitlab.com:org/lib.git', 'https://gitlab.com/org/lib', 'https://gitlab.com/org/lib/-/tree/abc'],
    ['https://example.org/org/lib.git', 'https://example.org/org/lib.git', null],
    ['file:///srv/lib', null, null],
  ])('%s', (url, webUrl, treeUrl) => {
    expect(submoduleLinks(url, 'abc', project)).toEqual({ webUrl, treeUrl });
  });
});

describe('LFS pointers as Gitaly finds them', () => {
  const blob = (text: string) => ({ size: Buffer.byteLength(text), encoding: 'base64', content: Buffer.from(text).toString('base64') });
  it('reads the sha256 of a pointer and nothing of other files', () => {
    expect(lfsOidOf(blob(`version https://git-lfs.github.com/spec/v1\noid sha256:${'b'.repeat(64)}\nsize 9\n`))).toBe('b'.repeat(64));
    expect(lfsOidOf(blob('# readme\n'))).toBeNull();
    expect(lfsOidOf(blob(`version https://git-lfs.github.com/spec/v1\noid sha256:${'b'.repeat(64)}\nsize 9\n${'x'.repeat(200)}`))).toBeNull();
  });
});
