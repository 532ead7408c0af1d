import type {
  EpicResolvers,
  IterationResolvers,
  MetricImageResolvers,
  NoteResolvers,
  TodoableResolvers,
  TodoResolvers,
  UserAgentDetailResolvers,
  Resolvers,
} from '../../__generated__/resolvers-types.js';
import { embedded, oneCall } from '../../cost/field-cost.js';
import { ID_ONLY, ISSUE_AS_TO_DO_TARGET, PROJECT_REFERENCE, USER_AUTHOR, USER_SUMMARY } from '../../cost/shapes.js';
import { declared } from '../../fields/declaration.js';
import { toGlobalId } from '../global-id.js';
import { renderMarkdown } from '../projects/markdown.js';
import { notePermissions } from './note-permissions.js';
import { recordField } from '../../fields/patterns.js';

// The small object types of the issues domain: global IDs and links to their owners; every other
// field reads its REST field.

export const Epic: EpicResolvers = {
  id: (epic) => toGlobalId('Epic', epic.id),
  group: declared(embedded(ID_ONLY), (epic) => (epic.group_id === undefined ? null : { id: epic.group_id })),
  webPath: (epic) => epic.url ?? null,
};

export const Iteration: IterationResolvers = {
  id: (iteration) => toGlobalId('Iteration', iteration.id),
  group: declared(embedded(ID_ONLY), (iteration) => (iteration.group_id === undefined ? null : { id: iteration.group_id })),
};

export const UserAgentDetail: UserAgentDetailResolvers = {
  // GitLab renamed `akismet_submitted` (the documentation's example) to `filter_submitted`.
  submitted: (detail) => detail.filter_submitted ?? detail.akismet_submitted ?? null,
};

export const MetricImage: MetricImageResolvers = {
  id: (image) => toGlobalId('IssuableMetricImage', image.id),
};

export const Note: NoteResolvers = {
  author: recordField(embedded(USER_AUTHOR)),
  id: (note) => toGlobalId('Note', note.id),
  noteableIid: (note) => (note.noteable_iid === undefined || note.noteable_iid === null ? null : String(note.noteable_iid)),
  project: declared(embedded(ID_ONLY), (note) => (typeof note.project_id === 'number' ? { id: note.project_id } : null)),
  // GitLab renders a note in its project, which REST's Markdown finds by full path only: the
  // project is read for it (a commit's note, which names none, renders without), then POST /markdown.
  bodyHtml: declared({ calls: 2, rest: ['GET /projects/:id', 'POST /markdown'] }, async (note, _args, context) => {
    if (!context.credential) return null;
    const project = typeof note.project_id === 'number' ? await context.loaders.project.load(note.project_id) : undefined;
    return renderMarkdown(context, note.body, project?.path_with_namespace);
  }),
  lastEditedAt: (note) => (note.updated_at && note.updated_at !== note.created_at ? note.updated_at : null),
  // The note's project, for its web URL (shared with bodyHtml's through the project loader).
  url: declared({ ...oneCall(), rest: ['GET /projects/:id'] }, async (note, _args, { loaders }) => {
    if (typeof note.project_id !== 'number' || typeof note.noteable_iid !== 'number' || note.noteable_type !== 'Issue') return null;
    const project = await loaders.project.load(note.project_id);
    return `${project.web_url}/-/issues/${note.noteable_iid}#note_${note.id}`;
  }),
  resolved: (note) => note.resolved ?? false,
  // The caller (GET /user), their access to the note's project (GET /projects/:id) and the issue's
  // lock: each once (the caller read here is handed to the project's abilities, so that it is read
  // once without batching too, which the estimate case "a note created on an issue" holds).
  userPermissions: declared({ calls: 3, rest: ['GET /user', 'GET /projects/:id', 'GET /projects/:id/issues/:issue_iid'] }, (note, _args, context) =>
    notePermissions(note, context),
  ),
  resolvable: (note) => note.resolvable ?? false,
  system: (note) => note.system ?? false,
  internal: (note) => note.internal ?? note.confidential ?? null,
  confidential: (note) => note.confidential ?? note.internal ?? null,
};

export const Todo: TodoResolvers = {
  project: recordField(embedded(PROJECT_REFERENCE)),
  author: recordField(embedded(USER_SUMMARY)),
  id: (todo) => toGlobalId('Todo', todo.id),
  // The enums' internal values are REST's strings. (Codegen types enum results as `null` when enums
  // carry REST values, hence the casts.)
  action: (todo) => todo.action_name as unknown as null,
  targetType: (todo) => todo.target_type as unknown as null,
  target: declared(embedded(ISSUE_AS_TO_DO_TARGET), (todo) => (todo.target_type === 'Issue' || todo.target_type === 'MergeRequest' ? (todo.target ?? null) : null)),
};

/** A to-do's target is an issue or a merge request (Todo.target); a merge request's record has branches. */
export const Todoable: TodoableResolvers = {
  __resolveType: (record) => ('source_branch' in record ? 'MergeRequest' : 'Issue'),
};

/** What this module adds to the resolver map, keyed by GraphQL type (assembled by src/resolvers/index.ts). */
export const resolvers: Resolvers = { Epic, Iteration, MetricImage, Note, Todo, Todoable, UserAgentDetail };
