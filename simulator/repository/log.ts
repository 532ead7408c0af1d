// `git log` for the commits list (rest-v4-api.md "Commits": ref_name with revision ranges, since,
// until, path, all, first_parent, order), with git's semantics: `a..b` is what b reaches and a
// does not, `a...b` what exactly one of them reaches; the default order walks by commit date,
// newest first; `topo` never shows a parent before its children.
import type { Tree } from './objects.js';
import type { GitCommit, Repository } from './repository.js';

export interface LogOptions {
  /** A revision or a range (`a..b`, `a...b`); the default branch when absent. */
  refName?: string | undefined;
  /** Every branch and tag instead of `refName`. */
  all?: boolean | undefined;
  /** Unix seconds, inclusive, on the committer date. */
  since?: number | undefined;
  until?: number | undefined;
  /** Only commits that changed this file, or something under this directory. */
  path?: string | undefined;
  firstParent?: boolean | undefined;
  order?: 'default' | 'topo' | undefined;
  /** Only commits whose author name or e-mail contains this text (case-insensitive). */
  author?: string | undefined;
}

interface Walk {
  include: string[];
  exclude: string[];
}

/** The tips to walk from and to stop at; null when a revision names nothing. */
function walkFor(repository: Repository, options: LogOptions): Walk | null {
  if (options.all) {
    return { include: [...repository.branches.values(), ...[...repository.tags.values()].map((tag) => tag.target)], exclude: [] };
  }
  const spec = options.refName ?? repository.defaultBranch;
  const sha = (revision: string) => repository.resolve(revision)?.sha;
  const symmetric = /^(.*?)\.\.\.(.*)$/.exec(spec);
  if (symmetric) {
    const [left, right] = [sha(symmetric[1]!), sha(symmetric[2]!)];
    if (!left || !right) return null;
    const common = [...repository.ancestors([left])].filter((ancestor) => repository.ancestors([right]).has(ancestor));
    return { include: [left, right], exclude: common };
  }
  const range = /^(.*?)\.\.(.*)$/.exec(spec);
  if (range) {
    const [from, to] = [sha(range[1]!), sha(range[2]!)];
    return from && to ? { include: [to], exclude: [from] } : null;
  }
  const tip = sha(spec);
  return tip ? { include: [tip], exclude: [] } : null;
}

function parentsOf(commit: GitCommit, firstParent: boolean): readonly string[] {
  return firstParent ? commit.parents.slice(0, 1) : commit.parents;
}

/** Newest committer date first; ties keep the order they were reached in, as git's queue does. */
function dateOrder(repository: Repository, walk: Walk, hidden: Set<string>, firstParent: boolean): GitCommit[] {
  const result: GitCommit[] = [];
  const queued = new Set<string>();
  const queue: GitCommit[] = [];
  const push = (sha: string) => {
    const commit = repository.commits.get(sha);
    if (!commit || queued.has(sha) || hidden.has(sha)) return;
    queued.add(sha);
    queue.push(commit);
  };
  walk.include.forEach(push);
  while (queue.length > 0) {
    let newest = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i]!.committer.time > queue[newest]!.committer.time) newest = i;
    const [commit] = queue.splice(newest, 1);
    result.push(commit!);
    parentsOf(commit!, firstParent).forEach(push);
  }
  return result;
}

/** Children before parents, each line of history kept together (git's --topo-order). */
function topoOrder(repository: Repository, walk: Walk, hidden: Set<string>, firstParent: boolean): GitCommit[] {
  const members = new Set<string>();
  const stack = [...walk.include];
  while (stack.length > 0) {
    const sha = stack.pop()!;
    if (members.has(sha) || hidden.has(sha) || !repository.commits.has(sha)) continue;
    members.add(sha);
    stack.push(...parentsOf(repository.commits.get(sha)!, firstParent));
  }
  const children = new Map<string, number>();
  for (const sha of members) {
    for (const parent of parentsOf(repository.commits.get(sha)!, firstParent)) {
      if (members.has(parent)) children.set(parent, (children.get(parent) ?? 0) + 1);
    }
  }
  // A stack: the newest tip is taken first.
  const ready = [...new Set(walk.include)]
    .filter((sha) => members.has(sha) && !children.get(sha))
    .map((sha) => repository.commits.get(sha)!)
    .sort((a, b) => a.committer.time - b.committer.time);
  const result: GitCommit[] = [];
  const emitted = new Set<string>();
  while (ready.length > 0) {
    const commit = ready.pop()!;
    if (emitted.has(commit.sha)) continue;
    emitted.add(commit.sha);
    result.push(commit);
    // Parents go on the stack last-first, so the first parent's line continues right away.
    for (const parent of [...parentsOf(commit, firstParent)].reverse()) {
      if (!members.has(parent)) continue;
      const left = (children.get(parent) ?? 1) - 1;
      children.set(parent, left);
      if (left === 0) ready.push(repository.commits.get(parent)!);
    }
  }
  return result;
}

function underPath(tree: Tree, path: string): string {
  const exact = tree.get(path);
  if (exact) return `${exact.mode}:${exact.oid}`;
  const prefix = `${path.replace(/\/+$/, '')}/`;
  const parts: string[] = [];
  for (const [entryPath, entry] of tree) if (entryPath.startsWith(prefix)) parts.push(`${entryPath}:${entry.mode}:${entry.oid}`);
  return parts.sort().join('\n');
}

/** Whether the commit changed the path: it differs from every parent there (git's TREESAME rule). */
function touches(repository: Repository, commit: GitCommit, path: string, firstParent: boolean): boolean {
  const mine = underPath(commit.tree, path);
  const parents = parentsOf(commit, firstParent);
  if (parents.length === 0) return mine !== '';
  return parents.every((parent) => {
    const parentCommit = repository.commits.get(parent);
    return !parentCommit || underPath(parentCommit.tree, path) !== mine;
  });
}

/** The commits `git log` would list, in its order; empty when a revision names nothing. */
export function log(repository: Repository, options: LogOptions = {}): GitCommit[] {
  const walk = walkFor(repository, options);
  if (!walk) return [];
  const firstParent = options.firstParent === true;
  const hidden = walk.exclude.length > 0 ? repository.ancestors(walk.exclude) : new Set<string>();
  const ordered = options.order === 'topo' ? topoOrder(repository, walk, hidden, firstParent) : dateOrder(repository, walk, hidden, firstParent);
  const path = options.path?.replace(/^\/+/, '');
  const author = options.author?.toLowerCase();
  return ordered.filter(
    (commit) =>
      (options.since === undefined || commit.committer.time >= options.since) &&
      (options.until === undefined || commit.committer.time <= options.until) &&
      (!author || commit.author.name.toLowerCase().includes(author) || commit.author.email.toLowerCase().includes(author)) &&
      (!path || touches(repository, commit, path, firstParent)),
  );
}

/** The last commit reachable from `from` that changed `path` (for `last_commit_id` checks). */
export function lastCommitTouching(repository: Repository, from: string, path: string): GitCommit | undefined {
  return log(repository, { refName: from, path })[0];
}

/** How many commits `sha` reaches, itself included (`git rev-list --count`). */
export function countCommits(repository: Repository, sha: string, firstParent: boolean): number {
  return repository.ancestors([sha], firstParent).size;
}
