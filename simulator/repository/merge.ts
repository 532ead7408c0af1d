// Three-way merges as cherry-pick and revert make them: each path is merged from a base, "ours"
// (the target branch) and "theirs" (the change being applied); a file changed on both sides is
// merged line by line (diff3), and changes to the same or adjacent lines are a conflict, as in git.
import { diffSequences, splitLines } from './diff.js';
import { GITLINK_MODE, type Tree, type TreeEntry } from './objects.js';

/** For each line of `base`, the index of the same line in `other`, or -1 when it was changed. */
function matches(base: readonly string[], other: readonly string[]): Int32Array {
  const result = new Int32Array(base.length).fill(-1);
  for (const edit of diffSequences(base, other)) if (edit.kind === 'equal') result[edit.a] = edit.b;
  return result;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}

/**
 * diff3: walks the base lines that both sides kept unchanged; between two of them, a region only
 * one side changed takes that side, a region both changed identically takes it once, anything
 * else conflicts. Returns the merged text, or null on a conflict.
 */
export function mergeText(baseText: string, oursText: string, theirsText: string): string | null {
  const base = splitLines(baseText);
  const ours = splitLines(oursText);
  const theirs = splitLines(theirsText);
  const inOurs = matches(base, ours);
  const inTheirs = matches(base, theirs);
  const merged: string[] = [];
  let i = 0;
  let j = 0;
  let k = 0;
  while (i <= base.length) {
    // The next base line both sides kept (or the end), from where we stand.
    let stable = i;
    while (stable < base.length && !(inOurs[stable]! >= j && inTheirs[stable]! >= k)) stable++;
    const oursEnd = stable < base.length ? inOurs[stable]! : ours.length;
    const theirsEnd = stable < base.length ? inTheirs[stable]! : theirs.length;
    const baseChunk = base.slice(i, stable);
    const oursChunk = ours.slice(j, oursEnd);
    const theirsChunk = theirs.slice(k, theirsEnd);
    if (same(oursChunk, baseChunk)) merged.push(...theirsChunk);
    else if (same(theirsChunk, baseChunk) || same(oursChunk, theirsChunk)) merged.push(...oursChunk);
    else return null;
    if (stable >= base.length) break;
    merged.push(base[stable]!);
    i = stable + 1;
    j = oursEnd + 1;
    k = theirsEnd + 1;
  }
  return merged.join('');
}

function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  return a?.mode === b?.mode && a?.oid === b?.oid;
}

export interface TreeMerge {
  tree: Map<string, TreeEntry>;
  /** Paths that could not be merged. */
  conflicts: string[];
}

/**
 * Merges `theirs` into `ours` relative to `base`. `contentOf` reads a blob and `writeBlob` stores a
 * merged one. Binary files and gitlinks changed on both sides differently conflict, as do a change
 * on one side and a deletion on the other.
 */
export function mergeTrees(
  base: Tree,
  ours: Tree,
  theirs: Tree,
  contentOf: (oid: string) => Buffer,
  writeBlob: (content: Buffer) => string,
): TreeMerge {
  const tree = new Map<string, TreeEntry>();
  const conflicts: string[] = [];
  const paths = new Set([...base.keys(), ...ours.keys(), ...theirs.keys()]);
  for (const path of [...paths].sort()) {
    const b = base.get(path);
    const o = ours.get(path);
    const t = theirs.get(path);
    let result: TreeEntry | undefined;
    if (sameEntry(o, t) || sameEntry(t, b)) result = o;
    else if (sameEntry(o, b)) result = t;
    else if (!o || !t || o.mode === GITLINK_MODE || t.mode === GITLINK_MODE) {
      conflicts.push(path);
      continue;
    } else {
      const mode = mergeMode(b, o, t);
      const content = o.oid === t.oid ? contentOf(o.oid) : mergeBlobs(b, o, t, contentOf);
      if (mode === null || content === null) {
        conflicts.push(path);
        continue;
      }
      result = { mode, oid: writeBlob(content) };
    }
    if (result) tree.set(path, result);
  }
  return { tree, conflicts };
}

/** The side that changed the mode wins; both changing it differently is a conflict (null). */
function mergeMode(b: TreeEntry | undefined, o: TreeEntry, t: TreeEntry): TreeEntry['mode'] | null {
  if (o.mode === t.mode) return o.mode;
  if (o.mode === b?.mode) return t.mode;
  if (t.mode === b?.mode) return o.mode;
  return null;
}

function mergeBlobs(b: TreeEntry | undefined, o: TreeEntry, t: TreeEntry, contentOf: (oid: string) => Buffer): Buffer | null {
  if (b?.oid === o.oid) return contentOf(t.oid);
  if (b?.oid === t.oid) return contentOf(o.oid);
  const texts = [b ? contentOf(b.oid) : Buffer.alloc(0), contentOf(o.oid), contentOf(t.oid)];
  if (texts.some((text) => text.subarray(0, 8000).includes(0))) return null;
  const merged = mergeText(texts[0]!.toString('utf8'), texts[1]!.toString('utf8'), texts[2]!.toString('utf8'));
  return merged === null ? null : Buffer.from(merged, 'utf8');
}
