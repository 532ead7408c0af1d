import type {
  EpicResolvers,
  IterationResolvers,
  MetricImageResolvers,
  NoteResolvers,
  TodoResolvers,
  UserAgentDetailResolvers,
} from '../../__generated__/resolvers-types.js';
import { toGlobalId } from '../global-id.js';

// The small object types of the issues domain: global IDs and links to their owners; every other
// field reads its REST field.

export const Epic: EpicResolvers = {
  id: (epic) => toGlobalId('Epic', epic.id),
  group: (epic) => (epic.group_id === undefined ? null : { id: epic.group_id }),
};

export const Iteration: IterationResolvers = {
  id: (iteration) => toGlobalId('Iteration', iteration.id),
  group: (iteration) => (iteration.group_id === undefined ? null : { id: iteration.group_id }),
};

export const UserAgentDetail: UserAgentDetailResolvers = {
  // GitLab renamed `akismet_submitted` (the documentation's example) to `filter_submitted`.
  submitted: (detail) => detail.filter_submitted ?? detail.akismet_submitted ?? null,
};

export const MetricImage: MetricImageResolvers = {
  id: (image) => toGlobalId('IssuableMetricImage', image.id),
};

export const Note: NoteResolvers = {
  id: (note) => toGlobalId('Note', note.id),
  noteableIid: (note) => (note.noteable_iid === undefined || note.noteable_iid === null ? null : String(note.noteable_iid)),
};

export const Todo: TodoResolvers = {
  id: (todo) => toGlobalId('Todo', todo.id),
};
