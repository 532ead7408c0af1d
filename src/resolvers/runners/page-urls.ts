// The URLs of a runner's pages on the instance, as GitLab's routes build them. REST gives no runner
// a page URL, but it gives the pages of what owns runners (`web_url` of groups and projects) and of
// the caller (`GET /user`'s `web_url`, `<instance>/<username>`), from which the runner pages follow.
import type { Connection, Edge } from '../../connections/connection.js';
import type { RunnerSchema } from '../../datasources/runners.js';
import type { GatewayContext } from '../../server/context.js';
import { callerOf } from '../caller.js';
import { withFields } from '../../datasources/with-fields.js';

/** A runner list's edge with the runner's pages under the group or project that listed it. */
export type RunnerEdgeRecord = Edge<RunnerSchema> & { web_url?: string | null; edit_url?: string | null };

/**
 * GitLab's `RunnerWebUrlEdge`: under `Group.runners` and `Project.runners` an edge gives the runner's
 * page in that group or project (`group_runner_url`, `project_runner_url`); elsewhere none.
 */
export async function withRunnerPagesUnder(ownerWebUrl: string | null | undefined, connection: Promise<Connection<RunnerSchema>>): Promise<Connection<RunnerSchema>> {
  const page = await connection;
  return ownerWebUrl ? new RunnerPagesConnection(page, ownerWebUrl) : page;
}

/**
 * A runner list's page whose edges carry the runners' pages under their owner. The edges are made
 * when first read (once, however many aliases select them), as the connection's own edges are: most
 * queries select `nodes` only, and edges with cursors and URLs for every runner of a page are then
 * work for nothing. A getter on the prototype, not in an object literal, for the reason
 * connection.ts gives.
 */
class RunnerPagesConnection implements Connection<RunnerSchema> {
  readonly count: number | null;
  readonly nodes: RunnerSchema[];
  readonly pageInfo: Connection<RunnerSchema>['pageInfo'];
  readonly #page: Connection<RunnerSchema>;
  readonly #ownerWebUrl: string;
  #edges: RunnerEdgeRecord[] | undefined;

  constructor(page: Connection<RunnerSchema>, ownerWebUrl: string) {
    this.count = page.count;
    this.nodes = page.nodes;
    this.pageInfo = page.pageInfo;
    this.#page = page;
    this.#ownerWebUrl = ownerWebUrl;
  }

  get edges(): RunnerEdgeRecord[] {
    const owner = this.#ownerWebUrl;
    return (this.#edges ??= this.#page.edges.map((edge) =>
      withFields(edge, { web_url: `${owner}/-/runners/${edge.node.id}`, edit_url: `${owner}/-/runners/${edge.node.id}/edit` }),
    ));
  }
}

/**
 * The instance's web address (with a relative URL root, if any): the caller's own page
 * (`<instance>/<username>`) without the username. Null for anonymous callers.
 */
async function instanceWebUrl(context: GatewayContext): Promise<string | null> {
  const caller = await callerOf(context);
  if (!caller) return null;
  // callerOf primed the user loader with the GET /user record: no further call.
  const user = await context.loaders.user.load(caller.id);
  const suffix = `/${user.username}`;
  return user.web_url?.endsWith(suffix) ? user.web_url.slice(0, -suffix.length) : null;
}

/** `admin_runner_url`: the runner's page in the Admin Area, for administrators only, as in GitLab. */
export async function adminRunnerUrl(runner: RunnerSchema, context: GatewayContext, page: '' | '/edit'): Promise<string | null> {
  const caller = await callerOf(context);
  if (!caller?.isAdmin) return null;
  const base = await instanceWebUrl(context);
  return base === null ? null : `${base}/admin/runners/${runner.id}${page}`;
}
