// Building the tree of a new commit: the five file actions of `POST .../repository/commits`
// applied as one batch, cherry-pick and revert as three-way merges, and a submodule's gitlink
// moved to another commit. Refusals carry the messages GitLab answers with.
import { lastCommitTouching } from './log.js';
import { mergeTrees } from './merge.js';
import { EMPTY_TREE, GITLINK_MODE, type Tree, type TreeEntry } from './objects.js';
import type { GitCommit, Repository } from './repository.js';

/** A refusal of the whole change; nothing is written. */
export class ChangeRefused extends Error {}

export type FileActionKind = 'create' | 'delete' | 'move' | 'update' | 'chmod';

export interface FileAction {
  action: FileActionKind;
  filePath: string;
  previousPath?: string | undefined;
  /** Decoded content; a move without content keeps the file's own. */
  content?: Buffer | undefined;
  lastCommitId?: string | undefined;
  executeFilemode?: boolean | undefined;
}

function checkPath(path: string): string {
  const clean = path.replace(/^\/+/, '');
  if (clean === '') throw new ChangeRefused('You must provide a file path');
  if (clean.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new ChangeRefused('Path cannot include directory traversal');
  }
  return clean;
}

/** Whether a new file at `path` would clash with a directory of that name, or sit below a file. */
function clashes(tree: Map<string, TreeEntry>, path: string): string | null {
  const prefix = `${path}/`;
  for (const key of tree.keys()) if (key.startsWith(prefix)) return 'A directory with this name already exists';
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) if (tree.has(parts.slice(0, i).join('/'))) return 'A file with this name already exists';
  return null;
}

function refuseClash(tree: Map<string, TreeEntry>, path: string): void {
  const clash = clashes(tree, path);
  if (clash) throw new ChangeRefused(clash);
}

/**
 * Applies the actions in order to the start commit's tree (Files::MultiService and Gitaly's
 * UserCommitFiles): `create` refuses an existing file, `update`, `delete`, `move` and `chmod` refuse
 * a missing one, and `last_commit_id` must still be the last commit that changed the file.
 */
export function applyFileActions(repository: Repository, start: GitCommit | undefined, actions: readonly FileAction[]): Map<string, TreeEntry> {
  const tree = new Map(start?.tree ?? EMPTY_TREE);
  for (const action of actions) {
    const path = checkPath(action.filePath);
    const previousPath = action.action === 'move' ? checkPath(action.previousPath ?? '') : path;
    if (action.lastCommitId !== undefined && start && ['update', 'move', 'delete'].includes(action.action)) {
      const last = lastCommitTouching(repository, start.sha, previousPath);
      if (last?.sha !== action.lastCommitId) throw new ChangeRefused(`The file has changed since you started editing it: ${previousPath}`);
    }
    const existing = tree.get(previousPath);
    if (action.action !== 'create' && !existing) throw new ChangeRefused("A file with this name doesn't exist");
    switch (action.action) {
      case 'create':
        if (tree.has(path)) throw new ChangeRefused('A file with this name already exists');
        refuseClash(tree, path);
        tree.set(path, { mode: '100644', oid: repository.writeBlob(action.content ?? Buffer.alloc(0)) });
        break;
      case 'update':
        tree.set(path, { mode: existing!.mode, oid: repository.writeBlob(action.content ?? Buffer.alloc(0)) });
        break;
      case 'delete':
        tree.delete(path);
        break;
      case 'move':
        if (path !== previousPath && tree.has(path)) throw new ChangeRefused('A file with this name already exists');
        tree.delete(previousPath);
        refuseClash(tree, path);
        tree.set(path, action.content === undefined ? existing! : { mode: existing!.mode, oid: repository.writeBlob(action.content) });
        break;
      case 'chmod':
        tree.set(path, { mode: action.executeFilemode ? '100755' : '100644', oid: existing!.oid });
        break;
    }
  }
  return tree;
}

/** Why a cherry-pick or revert did not apply: REST's `error_code`. */
export type ChangeFailure = 'empty' | 'conflict';

export type ChangeOutcome = { tree: Map<string, TreeEntry> } | { failure: ChangeFailure };

function treeOfParent(repository: Repository, commit: GitCommit): Tree {
  const parent = commit.parents[0];
  return parent === undefined ? EMPTY_TREE : (repository.commits.get(parent)?.tree ?? EMPTY_TREE);
}

function threeWay(repository: Repository, base: Tree, onto: GitCommit, theirs: Tree): ChangeOutcome {
  const merged = mergeTrees(base, onto.tree, theirs, (oid) => repository.blob(oid), (content) => repository.writeBlob(content));
  if (merged.conflicts.length > 0) return { failure: 'conflict' };
  const unchanged = merged.tree.size === onto.tree.size && [...merged.tree].every(([path, entry]) => {
    const current = onto.tree.get(path);
    return current?.oid === entry.oid && current.mode === entry.mode;
  });
  // The change is already there: git would make an empty commit, GitLab refuses.
  return unchanged ? { failure: 'empty' } : { tree: merged.tree };
}

/** The commit's change (against its first parent, for a merge) applied on top of `onto`. */
export function cherryPickTree(repository: Repository, commit: GitCommit, onto: GitCommit): ChangeOutcome {
  return threeWay(repository, treeOfParent(repository, commit), onto, commit.tree);
}

/** The commit's change undone on top of `onto`. */
export function revertTree(repository: Repository, commit: GitCommit, onto: GitCommit): ChangeOutcome {
  return threeWay(repository, commit.tree, onto, treeOfParent(repository, commit));
}

/** The tree with the submodule at `path` moved to `commitSha` (Gitaly's UserUpdateSubmodule). */
export function submoduleTree(head: GitCommit, path: string, commitSha: string): Map<string, TreeEntry> {
  const entry = head.tree.get(path);
  if (!entry || entry.mode !== GITLINK_MODE) throw new ChangeRefused('Invalid submodule path');
  if (entry.oid === commitSha) throw new ChangeRefused(`The submodule ${path} is already at ${commitSha}`);
  const tree = new Map(head.tree);
  tree.set(path, { mode: GITLINK_MODE, oid: commitSha });
  return tree;
}
