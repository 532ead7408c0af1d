import type { NodeResolvers, QueryResolvers, ResolversTypes, Resolvers } from '../__generated__/resolvers-types.js';
import type { GatewayContext } from '../server/context.js';
import { oneCall, type FieldArgs } from '../cost/field-cost.js';
import { GROUP_LOADED, ISSUE_RECORD, PROJECT_LOADED, RUNNER_LOADED, USER_LOADED, type RecordShape } from '../cost/shapes.js';
import { declared } from '../fields/declaration.js';
import { badUserInput } from '../errors/graphql-errors.js';
import { parseGlobalId } from './global-id.js';
import { nullWhenNotFound } from './lookups.js';

type NodeValue = ResolversTypes['Node'] & { __typename: string };

/**
 * A class `node(id:)` can fetch, said once: its GraphQL type, REST's look-up by id alone (the
 * route it declares, and the read), and, where its fields' cost depends on it, the form of the
 * record that read answers (cost/shapes.ts).
 */
interface NodeClass {
  typename: string;
  route: string;
  shape?: RecordShape;
  load: (id: number, context: GatewayContext) => Promise<object>;
}

const NODE_CLASSES: Readonly<Record<string, NodeClass>> = {
  'Ci::Runner': { typename: 'CiRunner', route: 'GET /runners/:id', shape: RUNNER_LOADED, load: (id, { loaders }) => loaders.runner.load(id) },
  Project: { typename: 'Project', route: 'GET /projects/:id', shape: PROJECT_LOADED, load: (id, { loaders }) => loaders.project.load(id) },
  Group: { typename: 'Group', route: 'GET /groups/:id', shape: GROUP_LOADED, load: (id, { loaders }) => loaders.group.load(id) },
  User: { typename: 'UserCore', route: 'GET /users/:id', shape: USER_LOADED, load: (id, { loaders }) => loaders.user.load(id) },
  'Snippets::RepositoryStorageMove': {
    typename: 'SnippetRepositoryStorageMove',
    route: 'GET /snippet_repository_storage_moves/:repository_storage_id',
    load: (id, { api }) => api.snippets.showStorageMove(id),
  },
  Key: { typename: 'SshKey', route: 'GET /keys/:id', load: (id, { api }) => api.keys.show(id) },
  // GET /issues/:id is for administrators; others get FORBIDDEN for the entry. It answers a whole record (with `_links`).
  Issue: { typename: 'Issue', route: 'GET /issues/:id', shape: ISSUE_RECORD, load: (id, { loaders }) => loaders.issueById.load(id) },
};

const MAX_NODES = 100;

/** What a fetched node costs its own fields, per object type. */
const NODE_SHAPES: Readonly<Record<string, RecordShape>> = Object.fromEntries(
  Object.values(NODE_CLASSES).flatMap(({ typename, shape }) => (shape ? [[typename, shape]] : [])),
);
const NODE_ROUTES = Object.values(NODE_CLASSES).map(({ route }) => route);

const idsOf = (args: FieldArgs) => Math.min(Array.isArray(args['ids']) ? args['ids'].length : 0, MAX_NODES);

function fetcherFor(globalId: string, argumentName: string) {
  const { className, id } = parseGlobalId(globalId, argumentName);
  const fetcher = Object.hasOwn(NODE_CLASSES, className) ? NODE_CLASSES[className] : undefined;
  if (!fetcher) {
    throw badUserInput(`\`${argumentName}\` names a ${className}, which cannot be fetched by ID alone; supported: ${Object.keys(NODE_CLASSES).join(', ')}.`, argumentName);
  }
  return { fetcher, id };
}

async function resolveNode(fetcher: NodeClass, id: number, context: GatewayContext): Promise<NodeValue | null> {
  const record = await nullWhenNotFound(fetcher.load(id, context));
  // A copy, so the loader's cached record is never changed; __typename picks the object type.
  return record ? ({ ...record, __typename: fetcher.typename } as NodeValue) : null;
}

const nodeQueries: Pick<QueryResolvers, 'node' | 'nodes'> = {
  // A loader read per ID.
  node: declared({ ...oneCall(NODE_SHAPES), rest: NODE_ROUTES }, (_parent, { id }, context) => {
    const { fetcher, id: numericId } = fetcherFor(id, 'id');
    return resolveNode(fetcher, numericId, context);
  }),
  nodes: declared({ items: idsOf, callsPerItem: 1, returns: NODE_SHAPES, rest: NODE_ROUTES }, (_parent, { ids }, context) => {
    if (ids.length > MAX_NODES) throw badUserInput(`\`ids\` holds at most ${MAX_NODES} IDs; got ${ids.length}.`, 'ids');
    // All IDs are checked before the first REST call; then each entry succeeds or fails alone.
    const targets = ids.map((id) => fetcherFor(id, 'ids'));
    return targets.map(({ fetcher, id }) => resolveNode(fetcher, id, context)) as unknown as Array<NodeValue | null>;
  }),
};

export const Node: NodeResolvers = {
  __resolveType: (value) => (value as NodeValue).__typename as ReturnType<NonNullable<NodeResolvers['__resolveType']>> & string,
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Node, Query: nodeQueries };
