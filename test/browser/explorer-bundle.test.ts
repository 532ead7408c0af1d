import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExplorer, type ExplorerBuild } from '../../explorer/build.js';

/**
 * Hosts the bundle may name, and why none of them is ever loaded: XML namespaces are identifiers,
 * and the rest are documentation links inside library messages and help text (React's error
 * decoder, GraphiQL's logo link, the CodeMirror key map manual, graphql-js's scalar descriptions).
 * A new host here is a decision to review, never a CDN.
 */
const INERT_HOSTS = new Set(['www.w3.org', 'github.com', 'reactjs.org', 'yarnpkg.com', 'codemirror.net', 'en.wikipedia.org', 'commonmark.org']);

/** esbuild's `legalComments: 'eof'` block: license texts, which may cite their homepages. */
const LICENSE_BLOCK = /\/\*! Bundled license information:[\s\S]*?\*\/\s*$/;

/** Absolute and protocol-relative URLs, as written in source text. */
function urlsIn(text: string): string[] {
  const absolute = text.match(/https?:\/\/[^\s"'`<>()\\,]*/g) ?? [];
  const protocolRelative = (text.match(/["'`(=]\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi) ?? []).map((match) => `https:${match.slice(1)}`);
  return [...absolute, ...protocolRelative];
}

/** A URL that could make the page fetch from another host: any host not known to be inert. */
function isExternalReference(url: string): boolean {
  const host = url.replace(/^https?:\/\//, '').split(/[/?#:]/)[0] ?? '';
  // Bare scheme prefixes ("http://" + text) are markdown-it building links from the user's own text.
  if (host === '' || host.startsWith('$')) return false;
  return !INERT_HOSTS.has(host);
}

describe('the offline explorer bundle', () => {
  let outdir: string;
  let built: ExplorerBuild;
  const read = (file: string) => readFile(join(outdir, file), 'utf8');

  beforeAll(async () => {
    outdir = await mkdtemp(join(tmpdir(), 'explorer-bundle-'));
    built = await buildExplorer(outdir);
  }, 60_000);

  afterAll(async () => {
    if (outdir) await rm(outdir, { recursive: true, force: true });
  });

  it('is one page, one hashed script and one hashed stylesheet, and the page loads only those, from this origin', async () => {
    expect(built.files).toHaveLength(3);
    const [page, script, stylesheet] = built.files;
    expect(page).toBe('index.html');
    expect(script).toMatch(/^assets\/explorer-[A-Z0-9]+\.js$/);
    expect(stylesheet).toMatch(/^assets\/explorer-[A-Z0-9]+\.css$/);
    const html = await read('index.html');
    const loaded = [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
    // Besides the two assets, only the empty icon inline (so the browser asks for no /favicon.ico).
    expect(loaded.filter((target) => !target.startsWith('data:')).sort()).toEqual([`/explorer/${script}`, `/explorer/${stylesheet}`].sort());
    expect(loaded.filter((target) => target.startsWith('data:'))).toEqual(['data:,']);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script: the CSP allows none
  });

  it('names no host outside its inert allow-list in the script, the stylesheet or the page', async () => {
    const external: string[] = [];
    for (const file of built.files) {
      const code = (await read(file)).replace(LICENSE_BLOCK, '');
      external.push(...urlsIn(code).filter(isExternalReference).map((url) => `${file}: ${url}`));
    }
    expect(external).toEqual([]);
  });

  it('embeds its fonts: every url() in the stylesheet is a data: URL', async () => {
    const css = await read(built.files[2]!);
    const targets = [...css.matchAll(/url\(\s*["']?([^"')\s]+)/g)].map((match) => match[1]!);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => !target.startsWith('data:'))).toEqual([]);
  });

  it('is checked by a scanner that does catch a CDN reference', () => {
    const planted = 'e.src="https://unpkg.com/graphiql/graphiql.min.js";t.href=`//cdn.jsdelivr.net/npm/graphiql`;';
    expect(urlsIn(planted).filter(isExternalReference)).toEqual(['https://unpkg.com/graphiql/graphiql.min.js', 'https://cdn.jsdelivr.net']);
    expect(urlsIn('d="http://www.w3.org/2000/svg";u=`http://${t.url}`').filter(isExternalReference)).toEqual([]);
  });
});
