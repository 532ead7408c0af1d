// The embedded server's `GET /projects/:id/repository/tree`, as GitLab's REST answers it: a
// directory's entries or, with `recursive`, every entry below it with its full path, directories
// first, then files, then submodules (GitLab's Tree#sorted_entries), in offset pages.
// And `GET /projects/:id/repository/blobs/:sha`, which reads a blob the listing names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { blobOid, type Tree, type TreeEntry } from '../../simulator/repository/objects.js';
import { listTree, type TreeObject } from '../../simulator/repository/tree-listing.js';
import { call, list, record } from './helpers.js';

const { developer } = DEMO_TOKENS;
const P = '/projects/gitlab-org%2Fgitlab';

describe('listing a tree as git ls-tree, in GitLab\'s order', () => {
  const gitlink = 'c'.repeat(40);
  const tree: Tree = new Map<string, TreeEntry>([
    ['src/lib/main.rs', { mode: '100644', oid: blobOid(Buffer.from('x\n')) }],
    ['src/app.ts', { mode: '100755', oid: blobOid(Buffer.from('a\nb\n')) }],
    ['README.md', { mode: '100644', oid: blobOid(Buffer.from('# Readme\n')) }],
    ['src-gen.txt', { mode: '100644', oid: blobOid(Buffer.from('generated\n')) }],
    ['link', { mode: '120000', oid: blobOid(Buffer.from('README.md')) }],
    ['vendor/dep', { mode: '160000', oid: gitlink }],
  ]);
  // Tree ids computed with git itself (`git mktree`).
  const SRC = 'bbc9c41fb5c7b9200603c45dca56878cc4706bf2';
  const SRC_LIB = 'b3ff6dfa01bc1a4d41a394f6f559ffcaf4930387';
  const brief = (entries: TreeObject[] | null) => entries?.map((entry) => `${entry.type} ${entry.mode} ${entry.path}`) ?? null;

  it('lists a directory\'s own entries, its directories first, each group in git\'s order', () => {
    // git sorts `src-gen.txt` before `src/`: "-" comes before the "/" a directory's name ends with.
    expect(brief(listTree(tree, '', false))).toEqual(['tree 040000 src', 'tree 040000 vendor', 'blob 100644 README.md', 'blob 120000 link', 'blob 100644 src-gen.txt']);
    expect(listTree(tree, '', false)![0]).toEqual({ id: SRC, name: 'src', type: 'tree', path: 'src', mode: '040000' });
  });

  it('lists every entry below with `recursive`, nested ones by their full path, submodules last', () => {
    expect(brief(listTree(tree, '', true))).toEqual([
      'tree 040000 src',
      'tree 040000 src/lib',
      'tree 040000 vendor',
      'blob 100644 README.md',
      'blob 120000 link',
      'blob 100644 src-gen.txt',
      'blob 100755 src/app.ts',
      'blob 100644 src/lib/main.rs',
      'commit 160000 vendor/dep',
    ]);
    const entries = listTree(tree, '', true)!;
    expect(entries.find((entry) => entry.path === 'src/lib')).toEqual({ id: SRC_LIB, name: 'lib', type: 'tree', path: 'src/lib', mode: '040000' });
    expect(entries.find((entry) => entry.path === 'vendor/dep')).toEqual({ id: gitlink, name: 'dep', type: 'commit', path: 'vendor/dep', mode: '160000' });
  });

  it('lists a subdirectory by its path, a trailing slash or not', () => {
    expect(brief(listTree(tree, 'src', false))).toEqual(['tree 040000 src/lib', 'blob 100755 src/app.ts']);
    expect(listTree(tree, 'src/', true)).toEqual(listTree(tree, 'src', true));
    expect(brief(listTree(tree, 'src', true))).toEqual(['tree 040000 src/lib', 'blob 100755 src/app.ts', 'blob 100644 src/lib/main.rs']);
  });

  it('finds no directory at a missing path or at a file\'s', () => {
    expect(listTree(tree, 'nope', false)).toBeNull();
    expect(listTree(tree, 'README.md', true)).toBeNull();
    expect(listTree(tree, 'sr', false)).toBeNull();
  });
});

describe('GET /projects/:id/repository/tree', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  /** The default branch's tree in the demo repository of the project. */
  function defaultTree(): Tree {
    const project = sim.state.findProject('gitlab-org/gitlab')!;
    const repository = sim.state.repositories.get(project.id)!;
    return repository.resolve(project.defaultBranch)!.tree;
  }

  it('lists the default branch\'s root, 20 a page, with the totals of an offset list', async () => {
    const answer = await call(sim, `${P}/repository/tree`, { token: developer });
    expect(answer.status).toBe(200);
    const expected = listTree(defaultTree(), '', false)!;
    expect(list(answer)).toEqual(expected.slice(0, 20));
    expect(answer.headers.get('x-total')).toBe(String(expected.length));
    expect(answer.headers.get('x-page')).toBe('1');
  });

  it('pages a recursive tree without repeating or skipping an entry, nested entries by full path', async () => {
    const expected = listTree(defaultTree(), '', true)!;
    expect(expected.some((entry) => entry.path.includes('/'))).toBe(true);
    const seen: unknown[] = [];
    for (let page = 1; ; page++) {
      const answer = await call(sim, `${P}/repository/tree?recursive=true&per_page=3&page=${page}`, { token: developer });
      expect(answer.status).toBe(200);
      seen.push(...list(answer));
      if (answer.headers.get('x-next-page') === '') break;
    }
    expect(seen).toEqual(expected);
    expect(expected.length).toBeGreaterThan(listTree(defaultTree(), '', false)!.length);
  });

  it('lists a subdirectory at a ref, recursively or not', async () => {
    const directory = listTree(defaultTree(), '', false)!.find((entry) => entry.type === 'tree')!;
    const answer = await call(sim, `${P}/repository/tree?path=${encodeURIComponent(directory.path)}&ref=main&recursive=true&per_page=100`, { token: developer });
    expect(answer.status).toBe(200);
    expect(list(answer)).toEqual(listTree(defaultTree(), directory.path, true)!.slice(0, 100));
    for (const entry of list(answer)) expect(String(entry['path']).startsWith(`${directory.path}/`)).toBe(true);
  });

  it.each([
    ['an unknown ref', '?ref=no-such-branch', '404 Tree Not Found'],
    ['a path that is no directory', '?path=no%2Fsuch%2Fdirectory', '404 invalid revision or path Not Found'],
  ])('answers 404 for %s', async (_name, query, message) => {
    const answer = await call(sim, `${P}/repository/tree${query}`, { token: developer });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message });
  });

  it('hides a private project\'s tree from anonymous callers (404), and refuses keyset pagination (405)', async () => {
    const hidden = [...sim.state.projects.values()].find((candidate) => candidate.visibility === 'private')!;
    const anonymous = await call(sim, `/projects/${hidden.id}/repository/tree`);
    expect(anonymous.status).toBe(404);
    const keyset = await call(sim, `${P}/repository/tree?pagination=keyset`, { token: developer });
    expect(keyset.status).toBe(405);
  });

  it('answers a blob by its SHA with its content in base64 and its size, and 404 "Blob Not Found" for any other object', async () => {
    const file = listTree(defaultTree(), '', false)!.find((entry) => entry.type === 'blob')!;
    const answer = await call(sim, `${P}/repository/blobs/${file.id}`, { token: developer });
    expect(answer.status).toBe(200);
    const blob = record(answer);
    const content = Buffer.from(String(blob['content']), 'base64');
    expect(blob).toMatchObject({ sha: file.id, encoding: 'base64', size: content.length });
    expect(blobOid(content)).toBe(file.id);

    const directory = listTree(defaultTree(), '', false)!.find((entry) => entry.type === 'tree')!;
    for (const sha of [directory.id, 'f'.repeat(40)]) {
      const missing = await call(sim, `${P}/repository/blobs/${sha}`, { token: developer });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 Blob Not Found' });
    }
    const hidden = [...sim.state.projects.values()].find((candidate) => candidate.visibility === 'private')!;
    expect((await call(sim, `/projects/${hidden.id}/repository/blobs/${file.id}`)).status).toBe(404);
  });
});
