// Git's object model, as far as the embedded server needs it: blobs, trees and commits hashed
// exactly as git hashes them (SHA-1 over `<type> <size>\0<body>`), so every SHA is derived from
// content, parents, authorship and message, and the same change made twice gets the same SHA.
import { createHash } from 'node:crypto';

/** Regular file, executable file, symbolic link, and gitlink (a submodule's commit). */
export type FileMode = '100644' | '100755' | '120000' | '160000';

export const GITLINK_MODE: FileMode = '160000';

/** One path of a tree: a blob's id, or for a gitlink the submodule's commit SHA. */
export interface TreeEntry {
  readonly mode: FileMode;
  readonly oid: string;
}

/**
 * A tree as a flat map from full path (`src/app.ts`) to entry. Directories are implied by the
 * paths, as in git's index; `treeOid` builds the nested tree objects for hashing.
 */
export type Tree = ReadonlyMap<string, TreeEntry>;

export const EMPTY_TREE: Tree = new Map();

/** Who made a change and when: git keeps seconds and the author's UTC offset. */
export interface Person {
  readonly name: string;
  readonly email: string;
  /** Unix time in seconds. */
  readonly time: number;
  /** Minutes east of UTC (`+0200` is 120). */
  readonly offsetMinutes: number;
}

function hashObject(type: 'blob' | 'tree' | 'commit', body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

export function blobOid(content: Buffer): string {
  return hashObject('blob', content);
}

interface Directory {
  files: Map<string, TreeEntry>;
  directories: Map<string, Directory>;
}

function nest(tree: Tree): Directory {
  const root: Directory = { files: new Map(), directories: new Map() };
  for (const [path, entry] of tree) {
    const parts = path.split('/');
    const name = parts.pop()!;
    let directory = root;
    for (const part of parts) {
      let child = directory.directories.get(part);
      if (!child) {
        child = { files: new Map(), directories: new Map() };
        directory.directories.set(part, child);
      }
      directory = child;
    }
    directory.files.set(name, entry);
  }
  return root;
}

/** Tree ids by the text of their entries: most directories are unchanged from one commit to the next. */
const treeIds = new Map<string, string>();
const MAX_REMEMBERED_TREES = 50_000;

function directoryOid(directory: Directory): string {
  const entries: Array<{ name: string; sortKey: string; mode: string; oid: string }> = [];
  for (const [name, entry] of directory.files) entries.push({ name, sortKey: name, mode: entry.mode, oid: entry.oid });
  // git sorts a directory as if its name ended with "/".
  for (const [name, child] of directory.directories) entries.push({ name, sortKey: `${name}/`, mode: '40000', oid: directoryOid(child) });
  // Byte order of the UTF-8 names; code-unit order is the same for every name outside the astral planes.
  entries.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
  const key = entries.map((entry) => `${entry.mode} ${entry.name} ${entry.oid}`).join('\n');
  let oid = treeIds.get(key);
  if (oid === undefined) {
    const body = Buffer.concat(entries.flatMap((entry) => [Buffer.from(`${entry.mode} ${entry.name}\0`), Buffer.from(entry.oid, 'hex')]));
    oid = hashObject('tree', body);
    if (treeIds.size >= MAX_REMEMBERED_TREES) treeIds.clear();
    treeIds.set(key, oid);
  }
  return oid;
}

/** The id of the root tree object, as `git write-tree` would print it. */
export function treeOid(tree: Tree): string {
  return directoryOid(nest(tree));
}

function offset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}${String(absolute % 60).padStart(2, '0')}`;
}

function personLine(person: Person): string {
  return `${person.name} <${person.email}> ${person.time} ${offset(person.offsetMinutes)}`;
}

export interface CommitObject {
  treeOid: string;
  parents: readonly string[];
  author: Person;
  committer: Person;
  message: string;
  /** The armored signature, kept in the `gpgsig` header as git does (so it is part of the SHA). */
  gpgsig?: string | undefined;
}

/** The commit's SHA: the hash of git's commit object text. */
export function commitOid(commit: CommitObject): string {
  const lines = [`tree ${commit.treeOid}`, ...commit.parents.map((parent) => `parent ${parent}`)];
  lines.push(`author ${personLine(commit.author)}`, `committer ${personLine(commit.committer)}`);
  if (commit.gpgsig) lines.push(`gpgsig ${commit.gpgsig.split('\n').join('\n ')}`);
  return hashObject('commit', Buffer.from(`${lines.join('\n')}\n\n${commit.message}`));
}

/** `2025-05-20T10:11:12.000+02:00`: the time in the person's own offset, as REST shows commit dates. */
export function formatGitTime(person: Pick<Person, 'time' | 'offsetMinutes'>): string {
  const local = new Date((person.time + person.offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
  const text = offset(person.offsetMinutes);
  return `${local}.000${text.slice(0, 3)}:${text.slice(3)}`;
}
