import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * README.md holds the essentials and links docs/ for the rest. This keeps those links true: every
 * relative Markdown link of README.md and docs/ names a file of the repository, and every `#anchor`
 * a heading of its page (GitHub's slugs), so that moving or renaming a section breaks a test, not a
 * reader's click. It also keeps the README short, every docs/ page reachable from it, and every page
 * it links in the npm package (package.json "files"), where the README is read too.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');

const markdownFiles = (folder: string): string[] =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
const PAGES = [README, ...markdownFiles(DOCS)];

/** The lines outside fenced code blocks, where Markdown is Markdown. */
function proseLines(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) fence = marker;
    else if (fence !== undefined && marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    else if (fence === undefined) lines.push(line);
  }
  return lines;
}

/** GitHub's heading slug: lowercase, punctuation dropped but hyphens (and `_`), each space a hyphen. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link or image counts by its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors a page offers: its headings' slugs, a repeated slug numbered -1, -2, ... as GitHub does. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** Every link target of a page: inline links and images `[text](target)`, and reference definitions. */
function linksOf(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/(`+)[\s\S]*?\1/g, ''); // code spans hold no links
    for (const match of prose.matchAll(/\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/.exec(prose)?.[1];
    if (definition !== undefined) targets.push(definition);
  }
  return targets;
}

/** What is wrong with one page's links: a file that does not exist, or an anchor its page lacks. */
function brokenLinks(page: string, text: string, read: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  for (const target of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // http:, mailto:, ...
    const hash = target.indexOf('#');
    const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const file = path === '' ? page : resolve(dirname(page), path);
    if (relative(ROOT, file).startsWith(`..${sep}`)) {
      problems.push(`${target}: outside the repository`);
      continue;
    }
    const content = file === page ? text : read(file);
    if (content === undefined) {
      problems.push(`${target}: no such file`);
      continue;
    }
    if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(content).has(anchor)) {
      problems.push(`${target}: ${relative(ROOT, file)} has no heading #${anchor}`);
    }
  }
  return problems;
}

const readIfFile = (path: string): string | undefined => {
  if (!existsSync(path)) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // a directory: it exists, and has no headings
  }
};

describe('the links of README.md and docs/', () => {
  it('finds the pages and their links', () => {
    expect(PAGES.length).toBeGreaterThan(1);
    expect(linksOf(readFileSync(README, 'utf8')).length).toBeGreaterThan(0);
  });

  it.each(PAGES.map((page) => [relative(ROOT, page), page]))('%s links only to files and headings that exist', (_name, page) => {
    expect(brokenLinks(page, readFileSync(page, 'utf8'), readIfFile)).toEqual([]);
  });

  it('reports a missing file, a missing heading and a link out of the repository', () => {
    const page = join(DOCS, 'example.md');
    const text = '# Top\n\n## Two words\n\n## Two words\n\n[ok](#two-words) [ok](#two-words-1) [bad](#two-words-2)\n'
      + '[ok](../README.md) [bad](missing.md) [bad](../README.md#no-such-heading) [bad](../../elsewhere.md)\n'
      + '`[not a link](missing.md)`\n\n```\n[not a link](missing.md)\n```\n[ok](https://example.com/x.md#y)\n';
    expect(brokenLinks(page, text, readIfFile)).toEqual([
      '#two-words-2: docs/example.md has no heading #two-words-2',
      'missing.md: no such file',
      '../README.md#no-such-heading: README.md has no heading #no-such-heading',
      '../../elsewhere.md: outside the repository',
    ]);
  });

  it("slugs headings as GitHub does", () => {
    expect(slug("GitLab's GraphQL dialect")).toBe('gitlabs-graphql-dialect');
    expect(slug('TLS, HTTP/2 and a private CA')).toBe('tls-http2-and-a-private-ca');
    expect(slug('Credentials inventory (GitLab.com, PREMIUM and ULTIMATE)')).toBe('credentials-inventory-gitlabcom-premium-and-ultimate');
    expect(slug('The `src/__generated__` folder')).toBe('the-src__generated__-folder');
    expect(slug('Demo tokens (embedded v4 server)')).toBe('demo-tokens-embedded-v4-server');
  });
});

describe('README.md', () => {
  const readme = readFileSync(README, 'utf8');
  const linked = new Set(
    linksOf(readme)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => resolve(ROOT, decodeURIComponent(target.split('#')[0]!))),
  );

  it('is under 400 lines: the essentials, with the rest in docs/', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThan(400);
  });

  it('links every page of docs/', () => {
    const unlinked = markdownFiles(DOCS).filter((page) => !linked.has(page)).map((page) => relative(ROOT, page));
    expect(unlinked).toEqual([]);
  });

  it('links only files the npm package holds, so that its links work where the package is read', () => {
    const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;
    const published = (path: string) => files.some((entry) => path === entry || path.startsWith(`${entry}/`));
    const missing = [...linked].map((file) => relative(ROOT, file).split(sep).join('/')).filter((path) => path !== 'README.md' && !published(path));
    expect(missing).toEqual([]);
  });
});
