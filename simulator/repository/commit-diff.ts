// A commit's diff against its first parent (the empty tree for a root commit), as the commit diff,
// stats and comment endpoints read it. Commits never change, so each diff is computed once.
import { createHash } from 'node:crypto';
import { diffTrees, fileDiff, type DiffLine, type FileChange, type TextDiff } from './diff.js';
import { EMPTY_TREE } from './objects.js';
import type { GitCommit, Repository } from './repository.js';

export interface CommitFileDiff {
  change: FileChange;
  diff: TextDiff;
}

const cache = new WeakMap<GitCommit, CommitFileDiff[]>();

export function commitDiff(repository: Repository, commit: GitCommit): CommitFileDiff[] {
  const cached = cache.get(commit);
  if (cached) return cached;
  const parent = commit.parents[0] === undefined ? undefined : repository.commits.get(commit.parents[0]);
  const contentOf = (oid: string) => repository.blob(oid);
  const diffs = diffTrees(parent?.tree ?? EMPTY_TREE, commit.tree, contentOf).map((change) => ({ change, diff: fileDiff(change, contentOf) }));
  cache.set(commit, diffs);
  return diffs;
}

export interface CommitStats {
  additions: number;
  deletions: number;
  total: number;
}

export function commitStats(repository: Repository, commit: GitCommit): CommitStats {
  let additions = 0;
  let deletions = 0;
  for (const { diff } of commitDiff(repository, commit)) {
    additions += diff.additions;
    deletions += diff.deletions;
  }
  return { additions, deletions, total: additions + deletions };
}

/** GitLab's `Gitlab::Git.diff_line_code`: the SHA-1 of the path, then the old and new line numbers. */
export function lineCode(path: string, line: DiffLine): string {
  return `${createHash('sha1').update(path).digest('hex')}_${line.oldLine}_${line.newLine}`;
}

/**
 * The diff line a comment names (rest-v4-api.md "Comment placement rule"): a line of the file's
 * diff with that type whose number on that side is `line`. Unchanged context lines have no type, so
 * they never match, and neither does a path the commit did not change.
 */
export function findDiffLine(repository: Repository, commit: GitCommit, path: string, line: number, lineType: 'new' | 'old'): DiffLine | undefined {
  const file = commitDiff(repository, commit).find(({ change }) => change.newPath === path);
  return file?.diff.lines.find((candidate) => candidate.type === lineType && (lineType === 'new' ? candidate.newLine : candidate.oldLine) === line);
}
