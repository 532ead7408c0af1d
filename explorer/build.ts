/**
 * Builds the offline explorer (explorer/src, GraphiQL from npm) into one minified JS file and one
 * CSS file, named by content hash, plus the page that loads them, under dist/explorer/ (where
 * src/transport/explorer.ts serves it from). Nothing in the output points at a CDN: fonts are inlined in
 * the CSS and every module is bundled (test/browser/explorer-bundle.test.ts checks the files).
 *
 *   tsx explorer/build.ts              build
 *   tsx explorer/build.ts --if-stale   build only when the bundle is missing or older than its sources
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { EXPLORER_BUNDLE_DIRECTORY } from '../src/transport/explorer.js';

const EXPLORER_SOURCE = dirname(fileURLToPath(import.meta.url));
const PACKAGE_ROOT = dirname(EXPLORER_SOURCE);

/** What the bundle is made from: a change to any of them makes it stale. */
function bundleInputs(): string[] {
  const sources = readdirSync(join(EXPLORER_SOURCE, 'src'), { recursive: true, encoding: 'utf8' }).map((name) => join(EXPLORER_SOURCE, 'src', name));
  return [join(EXPLORER_SOURCE, 'index.html'), fileURLToPath(import.meta.url), join(PACKAGE_ROOT, 'package-lock.json'), ...sources];
}

const modifiedAt = (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;

export function explorerIsStale(outdir = EXPLORER_BUNDLE_DIRECTORY): boolean {
  const builtAt = modifiedAt(join(outdir, 'index.html'));
  return builtAt === undefined || bundleInputs().some((input) => (modifiedAt(input) ?? 0) > builtAt);
}

export interface ExplorerBuild {
  outdir: string;
  /** Paths of the written files, relative to `outdir` (gzip copies left out). */
  files: string[];
  bytes: { js: number; css: number };
}

export async function buildExplorer(outdir = EXPLORER_BUNDLE_DIRECTORY): Promise<ExplorerBuild> {
  const assetsDirectory = join(outdir, 'assets');
  const result = await build({
    absWorkingDir: PACKAGE_ROOT,
    entryPoints: { explorer: join(EXPLORER_SOURCE, 'src', 'main.tsx') },
    outdir: assetsDirectory,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    // React and graphql-js take their production paths (and graphql-js drops its dev-only checks).
    define: { 'process.env.NODE_ENV': '"production"' },
    // Licenses stay with the code they cover, as comments at the end of each file.
    legalComments: 'eof',
    write: false,
    logLevel: 'warning',
  });
  const js = result.outputFiles.find((file) => extname(file.path) === '.js');
  const css = result.outputFiles.find((file) => extname(file.path) === '.css');
  if (!js || !css) throw new Error('esbuild produced no JS or no CSS for the explorer.');

  // New assets first, then the page that names them, then the old assets: a running gateway
  // never serves a page whose assets are missing.
  await mkdir(assetsDirectory, { recursive: true });
  for (const file of [js, css]) {
    await writeFile(file.path, file.contents);
    await writeFile(`${file.path}.gz`, gzipSync(file.contents, { level: 9 }));
  }
  const template = await readFile(join(EXPLORER_SOURCE, 'index.html'), 'utf8');
  const page = template.replace('%EXPLORER_JS%', basename(js.path)).replace('%EXPLORER_CSS%', basename(css.path));
  const pagePath = join(outdir, 'index.html');
  // A name of its own, as two test files may build at once; identical sources give identical files.
  const pageDraft = `${pagePath}.${process.pid}-${randomUUID()}.tmp`;
  await writeFile(pageDraft, page);
  await rename(pageDraft, pagePath);
  const current = new Set([basename(js.path), basename(css.path)].flatMap((name) => [name, `${name}.gz`]));
  for (const name of await readdir(assetsDirectory)) {
    if (!current.has(name)) await rm(join(assetsDirectory, name), { force: true });
  }
  return {
    outdir,
    files: ['index.html', relative(outdir, js.path), relative(outdir, css.path)],
    bytes: { js: js.contents.length, css: css.contents.length },
  };
}

/** Builds the explorer when it is missing or stale; for `npm start`, `npm test` and the browser test. */
export async function ensureExplorerBuilt(outdir = EXPLORER_BUNDLE_DIRECTORY): Promise<ExplorerBuild | undefined> {
  return explorerIsStale(outdir) ? buildExplorer(outdir) : undefined;
}

async function main(): Promise<void> {
  const built = process.argv.includes('--if-stale') ? await ensureExplorerBuilt() : await buildExplorer();
  const where = relative(process.cwd(), EXPLORER_BUNDLE_DIRECTORY) || '.';
  if (!built) {
    console.log(`explorer: ${where} is up to date`);
    return;
  }
  const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;
  console.log(`explorer: built ${where} (JS ${kib(built.bytes.js)}, CSS ${kib(built.bytes.css)})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
