// Line diffs as git makes them: Myers' algorithm on lines, unified hunks with three lines of
// context (merged when their contexts touch), "\ No newline at end of file" markers, and renames
// found by content (identical, or at least half the lines in common, git's default -M50%).
import { GITLINK_MODE, type Tree, type TreeEntry } from './objects.js';

export type Edit = { kind: 'equal'; a: number; b: number } | { kind: 'delete'; a: number } | { kind: 'insert'; b: number };

/** Past this many differences a file is treated as rewritten whole, which bounds time and memory. */
const MAX_EDIT_DISTANCE = 2000;

/** Myers' shortest edit script between `a[a0, a1)` and `b[b0, b1)`. */
function myers(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number): Edit[] {
  const n = a1 - a0;
  const m = b1 - b0;
  const rewritten = (): Edit[] => [
    ...Array.from({ length: n }, (_, i): Edit => ({ kind: 'delete', a: a0 + i })),
    ...Array.from({ length: m }, (_, i): Edit => ({ kind: 'insert', b: b0 + i })),
  ];
  if (n === 0 || m === 0) return rewritten();
  // trace[d] holds the furthest x reached on each diagonal k in [-d-1, d+1] before round d.
  const trace: Int32Array[] = [];
  let v = new Int32Array(3); // round 0: diagonals -1..1, all at x = 0
  for (let d = 0; d <= Math.min(n + m, MAX_EDIT_DISTANCE); d++) {
    trace.push(v);
    const next = new Int32Array(2 * d + 5); // diagonals -(d+2)..(d+2) for the next round
    const at = (k: number) => v[k + d + 1]!;
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? at(k + 1) : at(k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[a0 + x] === b[b0 + y]) {
        x++;
        y++;
      }
      next[k + d + 2] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, a0, b0);
    }
    v = next;
  }
  return rewritten();
}

function backtrack(trace: Int32Array[], n: number, m: number, a0: number, b0: number): Edit[] {
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d]!;
    const at = (k: number) => v[k + d + 1]!;
    const k = x - y;
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      edits.push({ kind: 'equal', a: a0 + x - 1, b: b0 + y - 1 });
      x--;
      y--;
    }
    if (d > 0) edits.push(x === previousX ? { kind: 'insert', b: b0 + y - 1 } : { kind: 'delete', a: a0 + x - 1 });
    x = previousX;
    y = previousY;
  }
  return edits.reverse();
}

/** The edit script from `a` to `b`; common head and tail are matched first, as git does. */
export function diffSequences(a: readonly string[], b: readonly string[]): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const head = Array.from({ length: start }, (_, i): Edit => ({ kind: 'equal', a: i, b: i }));
  const tail = Array.from({ length: a.length - endA }, (_, i): Edit => ({ kind: 'equal', a: endA + i, b: endB + i }));
  return [...head, ...myers(a, b, start, endA, start, endB), ...tail];
}

/** Lines with their newline kept, so a last line without one differs from the same text with one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/(?<=\n)/);
  return lines;
}

export function isBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

interface NumberedLine {
  kind: ' ' | '-' | '+';
  text: string;
  oldNo: number;
  newNo: number;
}

function numbered(a: readonly string[], b: readonly string[], edits: Edit[]): NumberedLine[] {
  let oldNo = 0;
  let newNo = 0;
  return edits.map((edit) => {
    if (edit.kind === 'equal') return { kind: ' ', text: a[edit.a]!, oldNo: ++oldNo, newNo: ++newNo };
    if (edit.kind === 'delete') return { kind: '-', text: a[edit.a]!, oldNo: ++oldNo, newNo };
    return { kind: '+', text: b[edit.b]!, oldNo, newNo: ++newNo };
  });
}

function range(start: number, length: number): string {
  return length === 1 ? `${start}` : `${length === 0 ? start - 1 : start},${length}`;
}

function renderLine(line: NumberedLine): string {
  const text = line.text.endsWith('\n') ? line.text : `${line.text}\n\\ No newline at end of file\n`;
  return `${line.kind}${text}`;
}

/** A line of a unified diff as the comment placement rule reads it: its type and its numbers. */
export interface DiffLine {
  type: 'new' | 'old' | null;
  oldLine: number;
  newLine: number;
}

export interface TextDiff {
  /** Unified hunks (`@@ -a,b +c,d @@` and their lines), without file headers, as REST's `diff`. */
  text: string;
  additions: number;
  deletions: number;
  /** The changed and context lines shown in the hunks. */
  lines: DiffLine[];
}

/** Unified diff of two texts with `context` lines around each change. */
export function unifiedDiff(oldText: string, newText: string, context = 3): TextDiff {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const lines = numbered(a, b, diffSequences(a, b));
  const changes = lines.flatMap((line, index) => (line.kind === ' ' ? [] : [index]));
  const result: TextDiff = { text: '', additions: 0, deletions: 0, lines: [] };
  let i = 0;
  while (i < changes.length) {
    let last = changes[i]!;
    let j = i + 1;
    // A gap of at most twice the context joins two changes into one hunk.
    while (j < changes.length && changes[j]! - last - 1 <= 2 * context) last = changes[j++]!;
    const from = Math.max(0, changes[i]! - context);
    const to = Math.min(lines.length, last + context + 1);
    const hunk = lines.slice(from, to);
    const oldCount = hunk.filter((line) => line.kind !== '+').length;
    const newCount = hunk.filter((line) => line.kind !== '-').length;
    const first = hunk[0]!;
    const oldStart = first.kind === '+' ? first.oldNo + 1 : first.oldNo;
    const newStart = first.kind === '-' ? first.newNo + 1 : first.newNo;
    result.text += `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n`;
    for (const line of hunk) {
      result.text += renderLine(line);
      if (line.kind === '+') result.additions++;
      if (line.kind === '-') result.deletions++;
      result.lines.push({ type: line.kind === '+' ? 'new' : line.kind === '-' ? 'old' : null, oldLine: line.oldNo, newLine: line.newNo });
    }
    i = j;
  }
  return result;
}

/** What one path did between two trees. */
export interface FileChange {
  oldPath: string;
  newPath: string;
  oldEntry: TreeEntry | null;
  newEntry: TreeEntry | null;
  newFile: boolean;
  deletedFile: boolean;
  renamedFile: boolean;
}

/** The text git diffs for an entry: a gitlink shows as `Subproject commit <sha>`. */
export function entryText(entry: TreeEntry | null, contentOf: (oid: string) => Buffer): { text: string; binary: boolean } {
  if (!entry) return { text: '', binary: false };
  if (entry.mode === GITLINK_MODE) return { text: `Subproject commit ${entry.oid}\n`, binary: false };
  const content = contentOf(entry.oid);
  return isBinary(content) ? { text: '', binary: true } : { text: content.toString('utf8'), binary: false };
}

/** Lines the two texts share, over their average length: git's similarity index. */
function similarity(a: string, b: string): number {
  const linesA = splitLines(a);
  const linesB = splitLines(b);
  if (linesA.length + linesB.length === 0) return 1;
  const common = diffSequences(linesA, linesB).filter((edit) => edit.kind === 'equal').length;
  return (2 * common) / (linesA.length + linesB.length);
}

const RENAME_SIMILARITY = 0.5;
/** Above this many candidate pairs only identical contents count as renames. */
const MAX_RENAME_PAIRS = 100;

/** The changes from one tree to another, renames detected, sorted by path. */
export function diffTrees(oldTree: Tree, newTree: Tree, contentOf: (oid: string) => Buffer): FileChange[] {
  const deleted: string[] = [];
  const added: string[] = [];
  const changes: FileChange[] = [];
  for (const [path, entry] of oldTree) {
    const now = newTree.get(path);
    if (!now) deleted.push(path);
    else if (now.oid !== entry.oid || now.mode !== entry.mode) {
      changes.push({ oldPath: path, newPath: path, oldEntry: entry, newEntry: now, newFile: false, deletedFile: false, renamedFile: false });
    }
  }
  for (const path of newTree.keys()) if (!oldTree.has(path)) added.push(path);

  const rename = (from: string, to: string) => {
    changes.push({ oldPath: from, newPath: to, oldEntry: oldTree.get(from)!, newEntry: newTree.get(to)!, newFile: false, deletedFile: false, renamedFile: true });
    deleted.splice(deleted.indexOf(from), 1);
    added.splice(added.indexOf(to), 1);
  };
  for (const from of [...deleted]) {
    const to = added.find((path) => newTree.get(path)!.oid === oldTree.get(from)!.oid);
    if (to) rename(from, to);
  }
  if (deleted.length * added.length <= MAX_RENAME_PAIRS) {
    for (const from of [...deleted]) {
      const before = entryText(oldTree.get(from)!, contentOf);
      if (before.binary) continue;
      let best: { path: string; score: number } | undefined;
      for (const to of added) {
        const after = entryText(newTree.get(to)!, contentOf);
        if (after.binary) continue;
        const score = similarity(before.text, after.text);
        if (score >= RENAME_SIMILARITY && (!best || score > best.score)) best = { path: to, score };
      }
      if (best) rename(from, best.path);
    }
  }
  for (const path of deleted) {
    changes.push({ oldPath: path, newPath: path, oldEntry: oldTree.get(path)!, newEntry: null, newFile: false, deletedFile: true, renamedFile: false });
  }
  for (const path of added) {
    changes.push({ oldPath: path, newPath: path, oldEntry: null, newEntry: newTree.get(path)!, newFile: true, deletedFile: false, renamedFile: false });
  }
  return changes.sort((x, y) => (x.newPath < y.newPath ? -1 : x.newPath > y.newPath ? 1 : 0));
}

/** The unified diff of one file change (`Binary files ... differ` for binary content). */
export function fileDiff(change: FileChange, contentOf: (oid: string) => Buffer): TextDiff {
  const before = entryText(change.oldEntry, contentOf);
  const after = entryText(change.newEntry, contentOf);
  if (before.binary || after.binary) {
    const from = change.oldEntry ? `a/${change.oldPath}` : '/dev/null';
    const to = change.newEntry ? `b/${change.newPath}` : '/dev/null';
    return { text: `Binary files ${from} and ${to} differ\n`, additions: 0, deletions: 0, lines: [] };
  }
  return unifiedDiff(before.text, after.text);
}
