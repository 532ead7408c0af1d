import { describe, expect, it } from 'vitest';
import { applyFileActions, ChangeRefused, cherryPickTree, revertTree, submoduleTree, type FileAction } from '../../simulator/repository/changes.js';
import { unifiedDiff, diffTrees } from '../../simulator/repository/diff.js';
import { countCommits, log } from '../../simulator/repository/log.js';
import { mergeText } from '../../simulator/repository/merge.js';
import { blobOid, commitOid, EMPTY_TREE, formatGitTime, treeOid, type Person, type Tree, type TreeEntry } from '../../simulator/repository/objects.js';
import { Repository, type GitCommit } from '../../simulator/repository/repository.js';

// Expected object ids below were computed with git itself (`git hash-object`, `git write-tree`).
describe('git objects', () => {
  it('hashes blobs as git does', () => {
    expect(blobOid(Buffer.from(''))).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(blobOid(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('hashes nested trees, modes included, as git write-tree does', () => {
    const tree: Tree = new Map<string, TreeEntry>([
      ['src/app.ts', { mode: '100755', oid: blobOid(Buffer.from('a\nb\n')) }],
      ['hello.txt', { mode: '100644', oid: blobOid(Buffer.from('hello\n')) }],
    ]);
    expect(treeOid(tree)).toBe('446514d61cdc2fbfca43d09eac320df63c604699');
    expect(treeOid(EMPTY_TREE)).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });

  it('hashes commits from tree, parents, people and message', () => {
    const ada: Person = { name: 'Ada', email: 'ada@example.com', time: 1_700_000_000, offsetMinutes: 120 };
    expect(commitOid({ treeOid: '446514d61cdc2fbfca43d09eac320df63c604699', parents: [], author: ada, committer: ada, message: 'First\n' })).toBe(
      '10973791c89c421f671d0c49d896de26eab4e226',
    );
    expect(formatGitTime(ada)).toBe('2023-11-15T00:13:20.000+02:00');
  });
});

describe('unified diffs', () => {
  const lines = (n: number, change: (i: number) => string = String) => Array.from({ length: n }, (_, i) => `${change(i + 1)}\n`).join('');

  it('keeps changes more than six lines apart in separate hunks, and marks a missing final newline', () => {
    const diff = unifiedDiff(lines(20), `${lines(20, (i) => (i === 2 ? 'two' : i === 15 ? 'fifteen' : String(i)))}x`);
    expect(diff.text).toBe(
      '@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n' +
        '@@ -12,9 +12,10 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n 17\n 18\n 19\n 20\n+x\n\\ No newline at end of file\n',
    );
    expect([diff.additions, diff.deletions]).toEqual([3, 2]);
  });

  it('joins changes whose context touches into one hunk', () => {
    const diff = unifiedDiff(lines(12), lines(12, (i) => (i === 3 ? 'three' : i === 9 ? 'nine' : String(i))));
    expect(diff.text.match(/^@@.*@@$/gm)).toEqual(['@@ -1,12 +1,12 @@']);
  });

  it('shows a new file against nothing and a deleted one against nothing', () => {
    expect(unifiedDiff('', 'a\nb\n').text).toBe('@@ -0,0 +1,2 @@\n+a\n+b\n');
    expect(unifiedDiff('a\n', '').text).toBe('@@ -1 +0,0 @@\n-a\n');
  });

  it('tells which lines of the diff are new, old or context', () => {
    const diff = unifiedDiff('a\nb\nc\n', 'a\nB\nc\n');
    expect(diff.lines).toEqual([
      { type: null, oldLine: 1, newLine: 1 },
      { type: 'old', oldLine: 2, newLine: 1 },
      { type: 'new', oldLine: 2, newLine: 2 },
      { type: null, oldLine: 3, newLine: 3 },
    ]);
  });

  it('finds renames by content, and a changed mode as a change', () => {
    const blobs = new Map<string, Buffer>();
    const entry = (text: string, mode: TreeEntry['mode'] = '100644'): TreeEntry => {
      const oid = blobOid(Buffer.from(text));
      blobs.set(oid, Buffer.from(text));
      return { mode, oid };
    };
    const before: Tree = new Map([
      ['a.txt', entry('one\ntwo\nthree\nfour\n')],
      ['run.sh', entry('echo\n')],
    ]);
    const after: Tree = new Map([
      ['b.txt', entry('one\ntwo\nthree\nfour!\n')],
      ['run.sh', entry('echo\n', '100755')],
    ]);
    const changes = diffTrees(before, after, (oid) => blobs.get(oid)!);
    expect(changes.map(({ oldPath, newPath, renamedFile, newEntry }) => ({ oldPath, newPath, renamedFile, mode: newEntry?.mode }))).toEqual([
      { oldPath: 'a.txt', newPath: 'b.txt', renamedFile: true, mode: '100644' },
      { oldPath: 'run.sh', newPath: 'run.sh', renamedFile: false, mode: '100755' },
    ]);
  });
});

describe('three-way merges of text (diff3)', () => {
  const base = 'a\nb\nc\nd\ne\nf\n';
  it.each([
    ['takes changes to different places from both sides', 'A\nb\nc\nd\ne\nf\n', 'a\nb\nc\nd\ne\nF\n', 'A\nb\nc\nd\ne\nF\n'],
    ['takes the same change once', 'a\nB\nc\nd\ne\nf\n', 'a\nB\nc\nd\ne\nf\n', 'a\nB\nc\nd\ne\nf\n'],
    ['takes one side when the other kept the base', base, 'a\nb\nc\nd\ne\nf\ng\n', 'a\nb\nc\nd\ne\nf\ng\n'],
    ['conflicts on different changes to one line', 'a\nB1\nc\nd\ne\nf\n', 'a\nB2\nc\nd\ne\nf\n', null],
    ['conflicts on changes to adjacent lines', 'a\nB\nc\nd\ne\nf\n', 'a\nb\nC\nd\ne\nf\n', null],
  ])('%s', (_name, ours, theirs, merged) => {
    expect(mergeText(base, ours, theirs)).toBe(merged);
  });
});

/** A small repository: main with three commits, a feature branch off the first. */
function history() {
  const repository = new Repository('main');
  let clock = 1_700_000_000;
  const commit = (parents: string[], files: Record<string, string>, message: string, base?: GitCommit): GitCommit => {
    const tree = new Map(base?.tree ?? EMPTY_TREE);
    for (const [path, text] of Object.entries(files)) tree.set(path, { mode: '100644', oid: repository.writeBlob(Buffer.from(text)) });
    const who: Person = { name: 'Ada', email: 'ada@example.com', time: (clock += 60), offsetMinutes: 0 };
    return repository.writeCommit({ tree, parents, author: who, committer: who, message });
  };
  const first = commit([], { 'README.md': 'hello\n', 'src/app.ts': 'one\ntwo\nthree\n' }, 'First\n');
  const feature = commit([first.sha], { 'docs/guide.md': 'guide\n' }, 'Guide\n', first);
  const second = commit([first.sha], { 'src/app.ts': 'one\nTWO\nthree\n' }, 'Second\n', first);
  const third = commit([second.sha], { 'README.md': 'hello world\n' }, 'Third\n', second);
  repository.branches.set('main', third.sha);
  repository.branches.set('feature', feature.sha);
  repository.tags.set('v1', { name: 'v1', target: second.sha, message: 'One' });
  return { repository, first, feature, second, third, commit };
}

describe('git log', () => {
  const { repository, first, feature, second, third } = history();
  const shas = (commits: GitCommit[]) => commits.map((commit) => commit.sha);

  it('walks the default branch newest first', () => {
    expect(shas(log(repository))).toEqual([third.sha, second.sha, first.sha]);
  });

  it('reads ranges as git does', () => {
    expect(shas(log(repository, { refName: 'v1..main' }))).toEqual([third.sha]);
    expect(shas(log(repository, { refName: 'main...feature' }))).toEqual([third.sha, second.sha, feature.sha]);
    expect(shas(log(repository, { refName: `${first.sha.slice(0, 7)}..feature` }))).toEqual([feature.sha]);
    expect(log(repository, { refName: 'nothing..main' })).toEqual([]);
  });

  it('follows revision suffixes', () => {
    expect(repository.resolve('main~2')?.sha).toBe(first.sha);
    expect(repository.resolve('main^')?.sha).toBe(second.sha);
    expect(repository.resolve('refs/tags/v1')?.sha).toBe(second.sha);
  });

  it('filters by path, file or directory, and by committer date, inclusive', () => {
    expect(shas(log(repository, { path: 'src/app.ts' }))).toEqual([second.sha, first.sha]);
    expect(shas(log(repository, { path: 'src' }))).toEqual([second.sha, first.sha]);
    expect(shas(log(repository, { all: true, path: 'docs/' }))).toEqual([feature.sha]);
    expect(shas(log(repository, { since: second.committer.time, until: second.committer.time }))).toEqual([second.sha]);
  });

  it('counts commits as rev-list does', () => {
    expect(countCommits(repository, third.sha, false)).toBe(3);
  });

  it('orders topologically with every child before its parents', () => {
    const merged = history();
    const merge = merged.commit([merged.third.sha, merged.feature.sha], {}, 'Merge\n', merged.third);
    merged.repository.branches.set('main', merge.sha);
    const topo = shas(log(merged.repository, { order: 'topo' }));
    expect(topo[0]).toBe(merge.sha);
    expect(topo.indexOf(merged.first.sha)).toBe(topo.length - 1);
    expect(shas(log(merged.repository, { firstParent: true }))).toEqual([merge.sha, merged.third.sha, merged.second.sha, merged.first.sha]);
  });
});

describe('file actions', () => {
  const { repository, second, third } = history();
  const apply = (actions: FileAction[]) => applyFileActions(repository, third, actions);
  const text = (tree: Map<string, TreeEntry>, path: string) => repository.blob(tree.get(path)!.oid).toString();

  it('applies create, update, move, chmod and delete as one batch', () => {
    const tree = apply([
      { action: 'create', filePath: 'new.txt', content: Buffer.from('new\n') },
      { action: 'update', filePath: 'README.md', content: Buffer.from('changed\n') },
      { action: 'move', filePath: 'lib/app.ts', previousPath: 'src/app.ts' },
      { action: 'chmod', filePath: 'new.txt', executeFilemode: true },
      { action: 'delete', filePath: 'README.md' },
    ]);
    expect([...tree.keys()].sort()).toEqual(['lib/app.ts', 'new.txt']);
    expect(text(tree, 'lib/app.ts')).toBe('one\nTWO\nthree\n');
    expect(tree.get('new.txt')?.mode).toBe('100755');
  });

  it.each<[string, FileAction[], string]>([
    ['an existing file created', [{ action: 'create', filePath: 'README.md', content: Buffer.from('x') }], 'A file with this name already exists'],
    ['a missing file updated', [{ action: 'update', filePath: 'nope.md', content: Buffer.from('x') }], "A file with this name doesn't exist"],
    ['a missing file moved', [{ action: 'move', filePath: 'a.md', previousPath: 'nope.md' }], "A file with this name doesn't exist"],
    ['a file created over a directory', [{ action: 'create', filePath: 'src', content: Buffer.from('x') }], 'A directory with this name already exists'],
    ['a path that climbs out', [{ action: 'create', filePath: 'a/../../b', content: Buffer.from('x') }], 'Path cannot include directory traversal'],
    ['a stale last_commit_id', [{ action: 'update', filePath: 'src/app.ts', content: Buffer.from('x'), lastCommitId: 'f'.repeat(40) }], 'The file has changed since you started editing it: src/app.ts'],
  ])('refuses %s', (_name, actions, message) => {
    expect(() => apply(actions)).toThrow(new ChangeRefused(message));
  });

  it('accepts the last commit that changed the file as last_commit_id', () => {
    expect(text(apply([{ action: 'update', filePath: 'src/app.ts', content: Buffer.from('x\n'), lastCommitId: second.sha }]), 'src/app.ts')).toBe('x\n');
  });
});

describe('cherry-pick and revert', () => {
  it('applies a change once, then finds it empty; reverting it twice finds the second empty', () => {
    const { repository, feature, third, commit } = history();
    const picked = cherryPickTree(repository, feature, third);
    if (!('tree' in picked)) throw new Error('the pick should apply');
    const onto = commit([third.sha], {}, 'Picked\n', { ...third, tree: picked.tree });
    expect(cherryPickTree(repository, feature, onto)).toEqual({ failure: 'empty' });
    const reverted = revertTree(repository, onto, onto);
    if (!('tree' in reverted)) throw new Error('the revert should apply');
    expect(reverted.tree.has('docs/guide.md')).toBe(false);
    const back = commit([onto.sha], {}, 'Revert\n', { ...onto, tree: reverted.tree });
    expect(revertTree(repository, onto, back)).toEqual({ failure: 'empty' });
  });

  it('reports a conflict when the branch changed the same lines differently', () => {
    const { repository, first, second, commit } = history();
    const rival = commit([first.sha], { 'src/app.ts': 'one\nDEUX\nthree\n' }, 'Rival\n', first);
    expect(cherryPickTree(repository, rival, second)).toEqual({ failure: 'conflict' });
  });

  it('moves a gitlink, and refuses a path that is not a submodule', () => {
    const repository = new Repository('main');
    const who: Person = { name: 'Ada', email: 'ada@example.com', time: 1, offsetMinutes: 0 };
    const head = repository.writeCommit({ tree: new Map([['vendor/lib', { mode: '160000', oid: 'a'.repeat(40) }]]), parents: [], author: who, committer: who, message: 'Add\n' });
    expect(submoduleTree(head, 'vendor/lib', 'b'.repeat(40)).get('vendor/lib')).toEqual({ mode: '160000', oid: 'b'.repeat(40) });
    expect(() => submoduleTree(head, 'vendor/lib', 'a'.repeat(40))).toThrow(`The submodule vendor/lib is already at ${'a'.repeat(40)}`);
    expect(() => submoduleTree(head, 'vendor', 'b'.repeat(40))).toThrow('Invalid submodule path');
  });
});
