// `git ls-tree` over the flat trees of objects.ts, as GitLab's REST tree answers it
// (Repositories::TreeFinder, Gitaly's GetTreeEntries): a directory's own entries, or with
// `recursive` every entry below it, directories included; each entry with its full path from the
// root. GitLab's Tree#sorted_entries then lists every directory first, then every file, then every
// submodule, each group in git's order.
import { GITLINK_MODE, treeOid, type FileMode, type Tree, type TreeEntry } from './objects.js';

/** REST's TreeObject entity. */
export interface TreeObject {
  /** The blob's or tree's id; for a submodule, its commit SHA. */
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  /** Full path from the repository's root. */
  path: string;
  /** `040000` for a directory, as REST writes it; a file's or gitlink's own mode otherwise. */
  mode: '040000' | FileMode;
}

/** A directory's direct children: its files and gitlinks, and its subdirectories by name. */
interface Level {
  files: Map<string, TreeEntry>;
  directories: Set<string>;
}

function childrenOf(tree: Tree, directory: string): Level | null {
  const prefix = directory === '' ? '' : `${directory}/`;
  const level: Level = { files: new Map(), directories: new Set() };
  let found = directory === '';
  for (const [path, entry] of tree) {
    if (!path.startsWith(prefix)) continue;
    found = true;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    if (slash === -1) level.files.set(rest, entry);
    else level.directories.add(rest.slice(0, slash));
  }
  return found ? level : null;
}

/** The id of a subdirectory's tree object: the tree of the paths under it, hashed as git does. */
function subtreeOid(tree: Tree, directory: string): string {
  const prefix = `${directory}/`;
  return treeOid(new Map([...tree].filter(([path]) => path.startsWith(prefix)).map(([path, entry]) => [path.slice(prefix.length), entry])));
}

/** git's order within a tree: by name, a directory's name as if it ended with "/". */
function gitOrder(level: Level): Array<{ name: string; directory: boolean }> {
  const names = [...[...level.files.keys()].map((name) => ({ name, directory: false })), ...[...level.directories].map((name) => ({ name, directory: true }))];
  const key = (item: { name: string; directory: boolean }) => (item.directory ? `${item.name}/` : item.name);
  return names.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Entries in `git ls-tree [-r -t]` order: a directory before what it holds. */
function lsTree(tree: Tree, directory: string, level: Level, recursive: boolean, into: TreeObject[]): void {
  for (const { name, directory: isDirectory } of gitOrder(level)) {
    const path = directory === '' ? name : `${directory}/${name}`;
    if (isDirectory) {
      into.push({ id: subtreeOid(tree, path), name, type: 'tree', path, mode: '040000' });
      if (recursive) lsTree(tree, path, childrenOf(tree, path)!, true, into);
    } else {
      const entry = level.files.get(name)!;
      into.push({ id: entry.oid, name, type: entry.mode === GITLINK_MODE ? 'commit' : 'blob', path, mode: entry.mode });
    }
  }
}

/**
 * The entries of the directory at `path` ('' for the root) in GitLab's order, or null when the
 * commit's tree has no directory there (a missing path, or a file's).
 */
export function listTree(tree: Tree, path: string, recursive: boolean): TreeObject[] | null {
  const directory = path.replace(/^\/+|\/+$/g, '');
  const level = childrenOf(tree, directory);
  if (!level) return null;
  const entries: TreeObject[] = [];
  lsTree(tree, directory, level, recursive, entries);
  const ofType = (type: TreeObject['type']) => entries.filter((entry) => entry.type === type);
  return [...ofType('tree'), ...ofType('blob'), ...ofType('commit')];
}
