import { createReadStream, existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

/**
 * The offline explorer: GraphiQL, bundled from npm by explorer/build.ts, served from this port.
 * Apollo Sandbox on GET /graphql loads from Apollo's CDN, which closed networks cannot reach; this
 * page loads nothing from anywhere else, and its Content-Security-Policy makes the browser hold it
 * to that.
 */
export const EXPLORER_PATH = '/explorer';
const ASSETS_PATH = `${EXPLORER_PATH}/assets/`;

/**
 * The package root: the nearest folder above this module with a package.json. It is found the
 * same way whether this module runs from src/ (tsx) or compiled under dist/.
 */
function packageRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    if (dirname(folder) === folder) return dirname(start);
  }
}

/** Where `npm run build:explorer` writes the bundle, and where the gateway serves it from. */
export const EXPLORER_BUNDLE_DIRECTORY = join(packageRoot(), 'dist', 'explorer');

/**
 * Scripts, styles and fonts from this origin only (the fonts are data: URLs inside the CSS), and
 * requests to this origin only: in current browsers 'self' also covers ws:/wss: to the same host
 * (CSP Level 3), which is where subscriptions go. No inline script and no eval. Inline styles are
 * allowed: GraphiQL's dialogs (Radix UI) insert a <style> element whose text depends on the
 * scrollbar's width, so no hash fits it; a style still fetches nothing font-src and img-src refuse.
 */
export const EXPLORER_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Asset names are one plain segment, as build.ts writes them: no slash, no `..`, no escapes. */
const ASSET_NAME = /^[\w-]+\.(?:js|css)$/;

/** Headers of every explorer response: no MIME sniffing, no framing, no referrer to elsewhere. */
const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

export function isExplorerPath(pathname: string): boolean {
  return pathname === EXPLORER_PATH || pathname.startsWith(`${EXPLORER_PATH}/`);
}

export type ExplorerHandler = (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<void>;

/** Serves GET /explorer (the page) and /explorer/assets/<name> (its hashed JS and CSS) from `directory`. */
export function createExplorerHandler(directory = EXPLORER_BUNDLE_DIRECTORY): ExplorerHandler {
  return async (req, res, pathname) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'The explorer answers GET and HEAD only.', { allow: 'GET, HEAD' });
      return;
    }
    if (pathname === EXPLORER_PATH || pathname === `${EXPLORER_PATH}/`) {
      await servePage(req, res, directory);
      return;
    }
    const name = pathname.startsWith(ASSETS_PATH) ? pathname.slice(ASSETS_PATH.length) : '';
    if (!ASSET_NAME.test(name)) {
      sendText(res, 404, `Nothing at ${pathname}.`);
      return;
    }
    await serveAsset(req, res, join(directory, 'assets', name));
  };
}

async function servePage(req: IncomingMessage, res: ServerResponse, directory: string): Promise<void> {
  const html = await readIfExists(join(directory, 'index.html'));
  if (html === undefined) {
    sendText(res, 503, 'The explorer is not built: run `npm run build:explorer`, then reload.');
    return;
  }
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': html.length,
    'content-security-policy': EXPLORER_CONTENT_SECURITY_POLICY,
    // The page names the current bundle; it must be asked for again after a rebuild.
    'cache-control': 'no-cache',
  });
  res.end(req.method === 'HEAD' ? undefined : html);
}

/**
 * Assets are named by their content hash, so they never change: browsers may keep them for good.
 * build.ts writes a gzip copy beside each; it is sent to clients that accept gzip.
 */
async function serveAsset(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const gzippedSize = acceptsGzip ? await sizeIfExists(`${path}.gz`) : undefined;
  const file = gzippedSize === undefined ? path : `${path}.gz`;
  const size = gzippedSize ?? (await sizeIfExists(path));
  if (size === undefined) {
    sendText(res, 404, 'No such asset; the page may be from an older build, reload it.');
    return;
  }
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': ASSET_TYPES[extname(path)] ?? 'application/octet-stream',
    'content-length': size,
    'cache-control': 'public, max-age=31536000, immutable',
    vary: 'accept-encoding',
    ...(file === path ? {} : { 'content-encoding': 'gzip' }),
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await pipeline(createReadStream(file), res);
}

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...COMMON_HEADERS, ...headers, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR';

async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function sizeIfExists(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : undefined;
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}
