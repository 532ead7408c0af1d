// A tree's entries as GitLab's file browser asks them (`Tree.trees`, `blobs`, `submodules`): one
// REST listing of the directory (`GET /projects/:id/repository/tree`, every page, through the
// treeListing loader) serves the three connections of one tree.
//
// `flatPath` is GitLab's (Gitaly's GetTreeEntries, populateFlatPath): for a directory, the path of
// the first directory below it that does not hold exactly one entry which is itself a directory,
// descending at most nine times; the path itself for every other entry, and for every entry of a
// recursive tree (Gitaly computes flat paths only for a directory's own entries). REST's listing has
// no flat paths. When the query selects `flatPath`, a small tree is read as REST's recursive listing
// of the directory, which holds both the directory's own entries and everything the collapsing
// needs: still one listing per tree, of up to FLAT_PATH_LISTING_PAGES pages. A larger one (a
// monorepo's root) is never read whole: its directory is listed alone, and each subdirectory of the
// page asked for is probed for a single directory inside it (the first two entries of its listing,
// one call per level; TreeEntry.flatPath).
import type { GraphQLResolveInfo } from 'graphql';
import type { TreeResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { arrayConnection } from '../../connections/connection.js';
import type { TreeObjectSchema } from '../../datasources/commits.js';
import type { GatewayContext } from '../../server/context.js';
import { FLAT_PATH_LISTING_PAGES, type Loaders } from '../../datasources/loaders.js';
import { declared } from '../../fields/declaration.js';
import type { TreeEntryRecord, TreeRecord } from '../../records/commits.js';
import { nullWhenNotFound } from '../lookups.js';
import { pathOfWebUrl } from '../web-path.js';
import { selectsField } from './selection.js';
import { submoduleLinks } from './submodule-links.js';
import { gitmodulesUrls } from './gitmodules.js';
import { withFields } from '../../datasources/with-fields.js';

/**
 * Pages of 100 the cost estimate assumes a tree listing holds (its one assumption here, as
 * UNBOUNDED_ARRAY_ITEMS is elsewhere): REST bounds neither a directory nor a recursive listing.
 */
export const TREE_LISTING_PAGES = 10;

/** Gitaly's defaultFlatTreeRecursion: a flat path descends at most this many levels, less one. */
const FLAT_TREE_RECURSION = 10;

/** Most calls one subdirectory's flat path probes (one listing head per level), for the cost estimate. */
export const FLAT_PATH_PROBES = FLAT_TREE_RECURSION - 1;

const TREE_LISTING = 'GET /projects/:id/repository/tree';
const PROJECT_RECORD = 'GET /projects/:id';

/**
 * Every page of the tree listing (shared by the three connections of a tree), and the project's
 * record for the entries' page URLs; when flatPath is selected, first up to FLAT_PATH_LISTING_PAGES
 * pages of the recursive listing, which a small tree's connections share instead.
 */
const ENTRIES_OF_TYPE = { calls: FLAT_PATH_LISTING_PAGES + TREE_LISTING_PAGES + 1, items: 'window', rest: [TREE_LISTING, PROJECT_RECORD] } as const;

/** The directory that holds an entry ('' for the root). */
function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/**
 * The directory's own entries with GitLab's flat paths, from REST's recursive listing of the
 * directory: entries whose parent is the directory, each directory collapsed as Gitaly does.
 */
export function withFlatPaths(directory: string, everything: readonly TreeObjectSchema[]): Array<TreeObjectSchema & { flatPath: string }> {
  const children = new Map<string, TreeObjectSchema[]>();
  for (const entry of everything) {
    const parent = parentOf(entry.path);
    const siblings = children.get(parent);
    if (siblings) siblings.push(entry);
    else children.set(parent, [entry]);
  }
  return (children.get(directory) ?? []).map((entry) => {
    let flatPath = entry.path;
    if (entry.type === 'tree') {
      for (let depth = 1; depth < FLAT_TREE_RECURSION; depth++) {
        const below = children.get(flatPath) ?? [];
        if (below.length !== 1 || below[0]!.type !== 'tree') break;
        flatPath = below[0]!.path;
      }
    }
    return withFields(entry, { flatPath });
  });
}

/** The ref the pages are named by: the one asked for, else the project's default branch. */
interface PageBase {
  /** `https://host/group/project`. */
  projectUrl: string;
  ref: string;
  /** `?ref_type=heads` when the tree was asked with `refType`, as GitLab's presenters add it. */
  query: string;
}

/** Each path segment escaped as Rails' route helpers escape a glob parameter. */
function escapedPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function entryUrl(base: PageBase | null, kind: 'tree' | 'blob', path: string): string | null {
  if (!base) return null;
  return `${base.projectUrl}/-/${kind}/${escapedPath(base.ref)}/${escapedPath(path)}${base.query}`;
}

async function pageBase(tree: TreeRecord, { loaders }: GatewayContext): Promise<PageBase | null> {
  const project = await loaders.project.load(tree.project);
  const ref = tree.ref ?? project.default_branch ?? null;
  if (!project.web_url || ref === null) return null;
  return { projectUrl: project.web_url.replace(/\/+$/, ''), ref, query: tree.refType ? `?ref_type=${tree.refType}` : '' };
}

/**
 * The directory's entries of every type in REST's order, with flat paths: from the plain listing, or
 * from the recursive one when `withFlat` (and the tree is not itself recursive).
 */
export async function directoryEntries(tree: TreeRecord, withFlat: boolean, { loaders }: GatewayContext): Promise<Array<TreeObjectSchema & { flatPath: string | null }>> {
  const directory = { project: tree.project, ref: tree.restRef, path: tree.path };
  // Gitaly answers nothing, not an error, for a ref or path that names no directory, so GitLab's
  // tree then has no entries; REST's listing answers 404 for both.
  if (withFlat && !tree.recursive) {
    const small = await nullWhenNotFound(loaders.subtreeWithin.load(directory).then((subtree) => ({ subtree })));
    if (small === null) return [];
    if (small.subtree) return withFlatPaths(tree.path, small.subtree);
  }
  const listing = (await nullWhenNotFound(loaders.treeListing.load({ ...directory, recursive: tree.recursive }))) ?? [];
  // Past the recursive listing's bound, a subdirectory's flat path is left to TreeEntry.flatPath.
  const probed = withFlat && !tree.recursive;
  return listing.map((entry) => withFields(entry, { flatPath: probed && entry.type === 'tree' ? null : entry.path }));
}

/**
 * A subdirectory's flat path found by probing (a tree too large for its recursive listing): while
 * the directory holds exactly one entry and that entry is a directory, descend into it.
 */
export async function probedFlatPath(entry: Pick<TreeEntryRecord, 'project' | 'ref' | 'path'>, loaders: Pick<Loaders, 'treeHead'>): Promise<string> {
  let flatPath = entry.path;
  for (let depth = 1; depth < FLAT_TREE_RECURSION; depth++) {
    const head = (await nullWhenNotFound(loaders.treeHead.load({ project: entry.project, ref: entry.ref, path: flatPath }))) ?? [];
    if (head.length !== 1 || head[0]!.type !== 'tree') break;
    flatPath = head[0]!.path;
  }
  return flatPath;
}

/** The tree's entries of one type (within its page, for a tree of `paginatedTree`), with flat paths and page URLs. */
async function entriesOfType(tree: TreeRecord, type: TreeObjectSchema['type'], context: GatewayContext, info: GraphQLResolveInfo): Promise<TreeEntryRecord[]> {
  // Any of the three connections selecting flatPath reads the recursive listing, so that all three
  // share it (GitLab's documents select flatPath on every kind of entry).
  const all = await directoryEntries(tree, tree.flatPaths ?? selectsField(info, 'flatPath'), context);
  const entries = tree.page ? all.slice(tree.page.start, tree.page.end) : all;
  const ofType = entries.filter((entry) => entry.type === type);
  const wantsPages = type !== 'commit' && (selectsField(info, 'webPath') || selectsField(info, 'webUrl'));
  const base = wantsPages && ofType.length > 0 ? await pageBase(tree, context) : null;
  return ofType.map((entry) => {
    const webUrl = type === 'commit' ? null : entryUrl(base, type, entry.path);
    return withFields(entry, { project: tree.project, ref: tree.restRef, webUrl, webPath: pathOfWebUrl(webUrl) });
  });
}

/**
 * Submodule links need `.gitmodules` at the tree's ref: REST's listing of the repository's root
 * names its blob (the same listing as the tree's own when the tree is the root), and REST's blob
 * endpoint gives its content.
 */
async function withSubmoduleLinks(tree: TreeRecord, submodules: TreeEntryRecord[], { loaders }: GatewayContext): Promise<TreeEntryRecord[]> {
  if (submodules.length === 0) return submodules;
  const root = (await nullWhenNotFound(loaders.treeListing.load({ project: tree.project, ref: tree.restRef, path: '', recursive: false }))) ?? [];
  const gitmodules = root.find((entry) => entry.path === '.gitmodules' && entry.type === 'blob');
  const [blob, project] = await Promise.all([gitmodules ? loaders.blob.load({ project: tree.project, sha: gitmodules.id }) : null, loaders.project.load(tree.project)]);
  const urls = blob ? gitmodulesUrls(Buffer.from(blob.content, blob.encoding === 'base64' ? 'base64' : 'utf8').toString('utf8')) : new Map<string, string>();
  return submodules.map((entry) => withFields(entry, { links: submoduleLinks(urls.get(entry.path), entry.id, project) }));
}

const treeEntryFields: Pick<TreeResolvers, 'trees' | 'blobs' | 'submodules' | 'permalinkPath'> = {
  // TreePresenter#permalink_path: the directory at the SHA of the commit the ref names, which
  // GET .../repository/commits/:ref gives (the commit loader), and the project's record.
  permalinkPath: declared({ calls: 2, rest: ['GET /projects/:id/repository/commits/:sha', PROJECT_RECORD] }, async (tree, _args, { loaders }) => {
    const [commit, project] = await Promise.all([
      nullWhenNotFound(loaders.commit.load({ project: tree.project, sha: tree.restRef ?? 'HEAD' })),
      loaders.project.load(tree.project),
    ]);
    const projectPath = pathOfWebUrl(project.web_url);
    if (!commit || projectPath === null) return null;
    return `${projectPath.replace(/\/+$/, '')}/-/tree/${commit.id}${tree.path === '' ? '' : `/${escapedPath(tree.path)}`}`;
  }),
  trees: declared(ENTRIES_OF_TYPE, async (tree, args, context, info) => {
    return arrayConnection(args, await entriesOfType(tree, 'tree', context, info));
  }),
  blobs: declared(ENTRIES_OF_TYPE, async (tree, args, context, info) => {
    return arrayConnection(args, await entriesOfType(tree, 'blob', context, info));
  }),
  // With webUrl or treeUrl also the root listing, the `.gitmodules` blob and the project's record.
  submodules: declared(
    {
      calls: FLAT_PATH_LISTING_PAGES + 2 * TREE_LISTING_PAGES + 2,
      items: 'window',
      rest: [TREE_LISTING, PROJECT_RECORD, 'GET /projects/:id/repository/blobs/:sha'],
    },
    async (tree, args, context, info) => {
      const submodules = await entriesOfType(tree, 'commit', context, info);
      const wantsLinks = selectsField(info, 'webUrl') || selectsField(info, 'treeUrl');
      return arrayConnection(args, wantsLinks ? await withSubmoduleLinks(tree, submodules, context) : submodules);
    },
  ),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Tree: treeEntryFields };
