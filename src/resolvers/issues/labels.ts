import { GraphQLError, Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { LabelResolvers, MilestoneResolvers, Resolvers } from '../../__generated__/resolvers-types.js';
import { embedded, oneCall } from '../../cost/field-cost.js';
import { ID_ONLY } from '../../cost/shapes.js';
import type { LabelSchema } from '../../datasources/issues.js';
import type { MilestoneSchema } from '../../datasources/issuable-schemas.js';
import { declared, type DeclarationSpec } from '../../fields/declaration.js';
import type { GatewayContext } from '../../server/context.js';
import { toGlobalId } from '../global-id.js';
import { pathOfWebUrl } from '../web-path.js';

/**
 * Issue records name their labels (`with_labels_details=true` gives objects). A named label keeps
 * its project, so that its other fields can be read from the project's labels.
 */
export function labelsOfIssue(labels: unknown, projectId: number): LabelSchema[] {
  if (!Array.isArray(labels)) return [];
  return (labels as Array<string | LabelSchema>).map((label) => (typeof label === 'string' ? { name: label, project_id: projectId } : label));
}

/** The fields a label named by an issue lacks: asking for any of them needs the project's labels. */
const DETAIL_FIELDS: ReadonlySet<string> = new Set(['id', 'color', 'description', 'descriptionHtml', 'textColor']);

/**
 * Whether the selection under an issue's labels asks for a field a named label lacks. Each
 * fragment is visited once, so the walk is linear in the document (issue 15); a name anywhere
 * under the field counts, which at worst looks the labels up once more than needed.
 */
export function asksForLabelDetails(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): boolean {
  const visited = new Set<string>();
  const pending: SelectionSetNode[] = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  for (let set = pending.pop(); set; set = pending.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (DETAIL_FIELDS.has(selection.name.value)) return true;
        if (selection.selectionSet) pending.push(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        pending.push(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = info.fragments[selection.name.value];
        if (fragment) pending.push(fragment.selectionSet);
      }
    }
  }
  return false;
}

/**
 * An issue's labels with their details, from one look-up of the project's labels (the loader
 * shares it with every issue of that project in the request); a name no label carries stays as
 * named, and its `id` fails with NOT_FOUND.
 */
export async function withLabelDetails(labels: LabelSchema[], context: GatewayContext): Promise<LabelSchema[]> {
  return Promise.all(labels.map((label) => detailed(label, context)));
}

/**
 * The label with its details: itself when REST gave the object, else the project's label of that
 * name (one `GET /projects/:id/labels` per project and request, with the ancestor groups' labels).
 */
async function detailed(label: LabelSchema, { loaders }: GatewayContext): Promise<LabelSchema> {
  if (label.id !== undefined || label.project_id === undefined) return label;
  const labels = await loaders.projectLabels.load({ project: label.project_id });
  return labels.find((candidate) => candidate.name === label.name) ?? label;
}

/**
 * The details of a label an issue names, or a NOT_FOUND error for the field: a name none of the
 * project's labels (all pages) carries belongs to a label deleted since the issue was read, and
 * has no ID, color or description to give (never a made-up one).
 */
async function required(label: LabelSchema, context: GatewayContext): Promise<LabelSchema & { id: number }> {
  const found = await detailed(label, context);
  if (found.id === undefined) {
    throw new GraphQLError(
      `The issue's label "${label.name.slice(0, 100)}" is not among the labels of project ${String(label.project_id)} or its groups (deleted since the issue was read?); only \`title\` can be given.`,
      { extensions: { code: 'NOT_FOUND' } },
    );
  }
  return { ...found, id: found.id };
}

/** A named label's details: the project's labels, once per project and request. */
const PROJECT_LABELS: DeclarationSpec = { calls: 1, unlessParentHas: 'id', rest: ['GET /projects/:id/labels'] };

export const Label: LabelResolvers = {
  id: declared(PROJECT_LABELS, async (label, _args, context) => toGlobalId('Label', (await required(label, context)).id)),
  title: (label) => label.name,
  // What the record carries is read from it (a board list's label has its color and description);
  // only a field it lacks is looked up among the project's labels.
  color: declared(PROJECT_LABELS, async (label, _args, context) => label.color ?? (await required(label, context)).color ?? '#FFFFFF'),
  description: declared(
    PROJECT_LABELS,
    async (label, _args, context) => (label.description !== undefined ? label.description : (await detailed(label, context)).description) ?? null,
  ),
  descriptionHtml: declared(PROJECT_LABELS, async (label, _args, context) => (await detailed(label, context)).description_html ?? null),
  textColor: declared(PROJECT_LABELS, async (label, _args, context) => label.text_color ?? (await required(label, context)).text_color ?? '#333333'),
};

/** GitLab's Milestone#expired?: a due date before today (the server's UTC day); false without one. */
export function milestoneExpired(milestone: Pick<MilestoneSchema, 'due_date'>, today: Date = new Date()): boolean {
  if (!milestone.due_date) return false;
  return milestone.due_date < today.toISOString().slice(0, 10);
}

export const Milestone: MilestoneResolvers = {
  id: (milestone) => toGlobalId('Milestone', milestone.id),
  iid: (milestone) => (milestone.iid === undefined ? null : String(milestone.iid)),
  project: declared(embedded(ID_ONLY), (milestone) => (milestone.project_id === undefined ? null : { id: milestone.project_id })),
  projectMilestone: (milestone) => (milestone.project_id === undefined && milestone.group_id === undefined ? null : milestone.project_id !== undefined),
  groupMilestone: (milestone) => (milestone.project_id === undefined && milestone.group_id === undefined ? null : milestone.group_id !== undefined),
  // A group milestone's group, for its parent.
  subgroupMilestone: declared({ ...oneCall(), rest: ['GET /groups/:id'] }, async (milestone, _args, { loaders }) => {
    if (milestone.project_id === undefined && milestone.group_id === undefined) return null;
    if (milestone.group_id === undefined) return false;
    const group = await loaders.group.load(milestone.group_id);
    return typeof group.parent_id === 'number';
  }),
  // The totals of the milestone's issue list, all and closed.
  stats: declared({ calls: 2, rest: ['GET /projects/:id/issues', 'GET /groups/:id/issues'] }, async (milestone, _args, { api }) => {
    if (milestone.title === undefined || (milestone.project_id === undefined && milestone.group_id === undefined)) return null;
    const one = { page: 1, perPage: 1 };
    // Every issue of the milestone, as GitLab counts them for its milestone page: the list's total.
    const count = (state: 'all' | 'closed') => {
      const filters = { milestone: milestone.title, state, scope: 'all' };
      return milestone.project_id !== undefined ? api.issues.forProject(milestone.project_id, filters, one) : api.issues.forGroup(milestone.group_id!, filters, one);
    };
    const [all, closed] = await Promise.all([count('all'), count('closed')]);
    return { totalIssuesCount: all.total, closedIssuesCount: closed.total };
  }),
  title: (milestone) => milestone.title ?? '',
  // REST's own `expired` (the server's today) when given; else judged from the due date. Boards
  // give only id and title: no dates to judge by.
  expired: (milestone) => milestone.expired ?? (milestone.web_url === undefined && milestone.due_date === undefined ? null : milestoneExpired(milestone)),
  webPath: (milestone) => pathOfWebUrl(milestone.web_url),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Label, Milestone };
