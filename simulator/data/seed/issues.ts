// Demo issues and what hangs off them: labels, milestones, iterations and epics (PREMIUM), notes,
// merge requests that mention or close issues, to-dos and incident metric images. Hundreds of issues
// across the projects, with assignees, weights, due dates around the simulator's clock, incidents
// and confidential ones, so that every filter of rest-v4-api.md "Issues" has something to filter.
import { projectAccessLevel } from '../access.js';
import { AccessLevel, type GroupLabel, type GroupMilestone, type Issue, type IssueType, type Label, type MergeRequest, type Milestone, type Project, type User } from '../model.js';
import { minutesBefore, type Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';

/** Every project gets these labels; `priority` orders `order_by=label_priority` (lower first). */
const LABELS: Array<[name: string, color: string, description: string | null, priority: number | null]> = [
  ['bug', '#D9534F', 'Something does not work as intended', 1],
  ['feature', '#428BCA', 'A new capability', 3],
  ['documentation', '#5CB85C', 'Documentation only', null],
  ['security', '#FF0000', 'A security problem', 0],
  ['performance', '#F0AD4E', 'Speed and resource use', 2],
  ['frontend', '#8E44AD', null, null],
  ['backend', '#34495E', null, null],
  ['workflow::todo', '#A8D695', 'Ready to be picked up', null],
  ['workflow::doing', '#69D100', 'In progress', null],
  ['workflow::review', '#0033CC', 'Waiting for review', null],
];

/** Every top-level group gets these labels, shared by its subgroups and projects. */
const GROUP_LABELS: Array<[name: string, color: string, description: string | null]> = [
  ['priority::high', '#CC0033', 'Do this first'],
  ['customer', '#E6E6FA', 'Reported by a customer'],
];

/** Project milestones: one closed, two active, with due dates around the clock (2025-06-01). */
const MILESTONES: Array<[title: string, state: Milestone['state'], startDate: string | null, dueDate: string | null]> = [
  ['v1.0', 'closed', '2025-01-06', '2025-03-31'],
  ['v1.1', 'active', '2025-04-01', '2025-06-30'],
  ['v2.0', 'active', null, '2025-09-30'],
];

const TITLES = [
  'Login fails with an expired session',
  'Add dark mode to the settings page',
  'Pipeline page is slow with many jobs',
  'Document the REST pagination headers',
  'Crash when the repository is empty',
  'Support SAML group sync',
  'Upgrade the database driver',
  'Broken link in the README',
  'Search ignores archived projects',
  'Flaky test in the scheduler spec',
  'Rate limit the export endpoint',
  'Improve the error message for bad tokens',
  'Memory leak in the background worker',
  'Translate the onboarding flow',
  'Webhook retries never stop',
  'Make the sidebar collapsible',
];
const INCIDENT_TITLES = ['Production outage: API answers 502', 'Elevated error rate on sign-in', 'Database replica lag over 5 minutes', 'CI jobs stuck in pending'];
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'UNKNOWN'];
const EMOJI = ['thumbsup', 'thumbsup', 'thumbsdown', 'tada', 'rocket', 'eyes'];
const HEALTH = ['on_track', 'needs_attention', 'at_risk'];
const AGENTS = ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36', 'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15', 'curl/8.5.0'];

const DAY_MINUTES = 24 * 60;

function dateOnly(iso: string): string {
  return iso.slice(0, 10);
}

function addDays(base: Date, days: number): string {
  return dateOnly(new Date(base.getTime() + days * DAY_MINUTES * 60_000).toISOString());
}

/** Users with at least `level` in the project, in id order (authors need Guest, assignees Reporter). */
function membersAtLeast(state: SimulatorState, project: Project, level: number): User[] {
  return [...state.users.values()].filter((user) => user.state === 'active' && projectAccessLevel(state, user, project) >= level);
}

function pickSome<T>(rng: Rng, items: readonly T[], max: number): T[] {
  const chosen: T[] = [];
  const count = Math.min(items.length, rng.int(0, max));
  while (chosen.length < count) {
    const item = rng.pick(items);
    if (!chosen.includes(item)) chosen.push(item);
  }
  return chosen;
}

/** The top-level group of a group project, which holds the epics and iterations its issues use. */
function topLevelGroupId(state: SimulatorState, project: Project): number | null {
  const group = state.projectGroup(project);
  if (!group) return null;
  const ancestors = state.groupAncestors(group);
  return (ancestors[ancestors.length - 1] ?? group).id;
}

function seedLabelsAndMilestones(state: SimulatorState, project: Project): void {
  for (const [name, color, description, priority] of LABELS) {
    const label: Label = { id: state.nextId('labels'), projectId: project.id, name, color, description, priority };
    state.labels.set(label.id, label);
  }
  for (const [index, [title, milestoneState, startDate, dueDate]] of MILESTONES.entries()) {
    const createdAt = new Date(Date.UTC(2024, 11, 1 + index, 9, 0, 0, 0)).toISOString();
    const milestone: Milestone = {
      id: state.nextId('milestones'),
      iid: index + 1,
      projectId: project.id,
      title,
      description: `${title} of ${project.name}`,
      state: milestoneState,
      createdAt,
      updatedAt: createdAt,
      dueDate,
      startDate,
      closedAt: milestoneState === 'closed' ? '2025-04-01T08:00:00.000Z' : null,
    };
    state.milestones.set(milestone.id, milestone);
  }
}

/** Group labels and milestones of every top-level group, which its subgroups' projects may use too. */
function seedGroupLabelsAndMilestones(state: SimulatorState): void {
  for (const group of state.groups.values()) {
    if (group.parentId !== null) continue;
    for (const [name, color, description] of GROUP_LABELS) {
      const label: GroupLabel = { id: state.nextId('labels'), groupId: group.id, name, color, description };
      state.groupLabels.set(label.id, label);
    }
    const createdAt = '2025-01-02T09:00:00.000Z';
    const milestone: GroupMilestone = {
      id: state.nextId('milestones'),
      iid: 1,
      groupId: group.id,
      title: `${group.name} Q3 release`,
      description: `The release train of ${group.name}`,
      state: 'active',
      createdAt,
      updatedAt: createdAt,
      dueDate: '2025-09-30',
      startDate: '2025-07-01',
      closedAt: null,
    };
    state.groupMilestones.set(milestone.id, milestone);
  }
}

/** Two epics and three iterations (closed, current, upcoming) per top-level group. */
function seedEpicsAndIterations(state: SimulatorState): void {
  for (const group of state.groups.values()) {
    if (group.parentId !== null) continue;
    for (const [index, title] of ['Platform reliability', 'New onboarding'].entries()) {
      const id = state.nextId('epics');
      state.epics.set(id, { id, iid: index + 1, groupId: group.id, title: `${title} (${group.name})`, description: '', createdAt: '2025-01-15T10:00:00.000Z', promotedFromIssueId: null });
    }
    const sprints: Array<[state: 1 | 2 | 3, start: string, due: string]> = [
      [3, '2025-05-12', '2025-05-25'],
      [2, '2025-05-26', '2025-06-08'],
      [1, '2025-06-09', '2025-06-22'],
    ];
    for (const [index, [iterationState, startDate, dueDate]] of sprints.entries()) {
      const id = state.nextId('iterations');
      state.iterations.set(id, {
        id,
        iid: index + 1,
        sequence: index + 1,
        groupId: group.id,
        title: index === 1 ? null : `Sprint ${index + 1}`,
        state: iterationState,
        createdAt: '2025-05-01T09:00:00.000Z',
        startDate,
        dueDate,
      });
    }
  }
}

function issueType(rng: Rng): IssueType {
  const roll = rng.next();
  return roll < 0.1 ? 'incident' : roll < 0.14 ? 'test_case' : 'issue';
}

function seedProjectIssues(state: SimulatorState, rng: Rng, project: Project): void {
  const authors = membersAtLeast(state, project, AccessLevel.GUEST);
  const assignable = membersAtLeast(state, project, AccessLevel.REPORTER);
  if (authors.length === 0) return;
  const milestones = [...state.milestones.values()].filter((m) => m.projectId === project.id);
  const topGroupId = topLevelGroupId(state, project);
  const epics = [...state.epics.values()].filter((e) => e.groupId === topGroupId);
  const iterations = [...state.iterations.values()].filter((i) => i.groupId === topGroupId);
  const labelNames = LABELS.map(([name]) => name);
  const count = rng.int(6, 18);
  for (let iid = 1; iid <= count; iid++) {
    const type = issueType(rng);
    const createdMinutesAgo = rng.int(2 * DAY_MINUTES, 400 * DAY_MINUTES);
    const createdAt = minutesBefore(state.now, createdMinutesAgo);
    const closed = rng.chance(0.3);
    const closedMinutesAgo = closed ? rng.int(60, createdMinutesAgo - 60) : 0;
    const updatedMinutesAgo = rng.int(30, closed ? closedMinutesAgo : createdMinutesAgo);
    const author = rng.pick(authors);
    const assignees = rng.chance(0.3) ? [] : pickSome(rng, assignable, 2);
    const spent = rng.chance(0.3) ? rng.int(1, 16) * 1800 : 0;
    const taskCount = rng.chance(0.3) ? rng.int(1, 8) : 0;
    const issue: Issue = {
      id: state.nextId('issues'),
      iid,
      projectId: project.id,
      title: type === 'incident' ? rng.pick(INCIDENT_TITLES) : rng.pick(TITLES),
      description: `${rng.pick(TITLES)}. Seen in ${project.name}.`,
      state: closed ? 'closed' : 'opened',
      issueType: type,
      createdAt,
      updatedAt: minutesBefore(state.now, updatedMinutesAgo),
      closedAt: closed ? minutesBefore(state.now, closedMinutesAgo) : null,
      closedById: closed ? rng.pick(assignable.length > 0 ? assignable : authors).id : null,
      authorId: author.id,
      assigneeIds: assignees.map((user) => user.id),
      milestoneId: milestones.length > 0 && rng.chance(0.65) ? rng.pick(milestones).id : null,
      labels: pickSome(rng, labelNames, 3),
      awards: pickSome(rng, authors, 4).map((user) => ({ id: state.nextAwardEmojiId(), userId: user.id, name: rng.pick(EMOJI), createdAt })),
      dueDate: rng.chance(0.45) ? null : addDays(state.now, rng.int(-60, 90)),
      confidential: rng.chance(0.12),
      discussionLocked: rng.chance(0.03),
      weight: rng.chance(0.6) ? rng.int(0, 9) : null,
      epicId: epics.length > 0 && rng.chance(0.25) ? rng.pick(epics).id : null,
      iterationId: iterations.length > 0 && rng.chance(0.4) ? rng.pick(iterations).id : null,
      healthStatus: rng.chance(0.2) ? rng.pick(HEALTH) : null,
      severity: type === 'incident' ? rng.pick(SEVERITIES) : 'UNKNOWN',
      relativePosition: rng.int(-5000, 5000) * 10,
      timeEstimate: rng.chance(0.4) ? rng.pick([3600, 7200, 14400, 28800, 144000]) : 0,
      totalTimeSpent: spent,
      tasks: { count: taskCount, completed: taskCount > 0 ? rng.int(0, taskCount) : 0 },
      subscriberIds: [...new Set([author.id, ...assignees.map((user) => user.id)])],
      userAgentDetail: { userAgent: rng.pick(AGENTS), ipAddress: `10.0.${rng.int(0, 255)}.${rng.int(1, 254)}`, submitted: false },
      promotedToEpicId: null,
    };
    state.issues.set(issue.id, issue);
    for (let n = rng.int(0, 3); n > 0; n--) {
      const id = state.nextId('notes');
      state.notes.set(id, {
        id,
        issueId: issue.id,
        authorId: rng.pick(authors).id,
        body: rng.pick(['I can reproduce this.', 'Working on a fix.', 'Is this still a problem on main?', 'Closing as done.']),
        system: false,
        confidential: false,
        createdAt: minutesBefore(state.now, rng.int(updatedMinutesAgo, createdMinutesAgo)),
      });
    }
    // Assigned, open issues put a pending to-do on their first assignee's list.
    const firstAssignee = issue.assigneeIds[0];
    if (issue.state === 'opened' && firstAssignee !== undefined && rng.chance(0.5)) {
      const id = state.nextId('todos');
      state.todos.set(id, { id, userId: firstAssignee, authorId: author.id, targetType: 'Issue', targetId: issue.id, actionName: 'assigned', state: 'pending', body: issue.title, createdAt });
    }
    if (type === 'incident') {
      for (let n = rng.int(0, 2); n > 0; n--) {
        const id = state.nextId('metricImages');
        state.metricImages.set(id, {
          id,
          issueId: issue.id,
          filename: `dashboard_${id}.png`,
          contentType: 'image/png',
          size: rng.int(20_000, 400_000),
          url: rng.chance(0.5) ? 'https://grafana.example.com/d/api-latency' : null,
          urlText: null,
          createdAt: minutesBefore(state.now, rng.int(updatedMinutesAgo, createdMinutesAgo)),
        });
      }
    }
  }
}

/**
 * Merge requests of a project: open ones close open issues, merged ones closed issues, and any may
 * mention others. Their counts and states feed `merge_requests_count`, `closed_by` and
 * `related_merge_requests`.
 */
function seedMergeRequests(state: SimulatorState, rng: Rng, project: Project): void {
  const issues = [...state.issues.values()].filter((issue) => issue.projectId === project.id);
  const authors = membersAtLeast(state, project, AccessLevel.DEVELOPER);
  if (issues.length === 0 || authors.length === 0 || !project.mergeRequestsEnabled) return;
  const count = rng.int(2, 6);
  for (let iid = 1; iid <= count; iid++) {
    const mergeState = rng.pick(['opened', 'opened', 'merged', 'merged', 'closed'] as const);
    const candidates = issues.filter((issue) => (mergeState === 'merged' ? issue.state === 'closed' : issue.state === 'opened'));
    const closes = pickSome(rng, candidates, 2).map((issue) => issue.id);
    const mentions = pickSome(rng, issues, 2)
      .map((issue) => issue.id)
      .filter((id) => !closes.includes(id));
    const createdMinutesAgo = rng.int(DAY_MINUTES, 200 * DAY_MINUTES);
    const finishedMinutesAgo = rng.int(30, createdMinutesAgo);
    const author = rng.pick(authors);
    const branch = `${rng.pick(['fix', 'feature', 'chore'])}/${project.path}-${iid}`;
    // Every other merge request asks another author for review; chosen by number, so that the
    // random draws (and so the rest of the demo data) stay as they were.
    const reviewer = authors[iid % authors.length];
    const mergeRequest: MergeRequest = {
      id: state.nextId('mergeRequests'),
      iid,
      projectId: project.id,
      title: `${rng.pick(['Fix', 'Add', 'Improve', 'Refactor'])} ${rng.pick(TITLES).toLowerCase()}`,
      description: closes.length > 0 ? `Closes ${closes.map((id) => `#${state.issues.get(id)?.iid ?? 0}`).join(', ')}` : 'No linked issue.',
      state: mergeState,
      createdAt: minutesBefore(state.now, createdMinutesAgo),
      updatedAt: minutesBefore(state.now, finishedMinutesAgo),
      mergedAt: mergeState === 'merged' ? minutesBefore(state.now, finishedMinutesAgo) : null,
      closedAt: mergeState === 'closed' ? minutesBefore(state.now, finishedMinutesAgo) : null,
      closedById: mergeState === 'closed' ? author.id : null,
      mergedById: null,
      authorId: author.id,
      assigneeId: rng.chance(0.6) ? rng.pick(authors).id : null,
      reviewerIds: iid % 2 === 0 && reviewer && reviewer.id !== author.id ? [reviewer.id] : [],
      sourceBranch: branch,
      targetBranch: project.defaultBranch,
      labels: pickSome(rng, LABELS.map(([name]) => name), 2),
      milestoneId: null,
      // Not drawn, so that the rest of the demo data stays as it was.
      discussionLocked: null,
      timeEstimate: 0,
      draft: mergeState === 'opened' && rng.chance(0.2),
      sha: rng.hex(40),
      mergeCommitSha: mergeState === 'merged' ? rng.hex(40) : null,
      mergeStatus: mergeState === 'opened' ? rng.pick(['can_be_merged', 'cannot_be_merged', 'unchecked'] as const) : 'can_be_merged',
      userNotesCount: rng.int(0, 12),
      changesCount: rng.int(1, 40),
      closesIssueIds: closes,
      mentionsIssueIds: mentions,
      subscriberIds: [],
    };
    // The assignee merged it, or its author when it has none: derived, not drawn, so that the rest
    // of the demo data stays as it was.
    if (mergeRequest.state === 'merged') mergeRequest.mergedById = mergeRequest.assigneeId ?? mergeRequest.authorId;
    // Its participants are subscribed (Subscribable#subscribed? without a subscription of their
    // own); derived after the draws above, so the rest of the demo data stays as it was.
    const participantIds = [mergeRequest.authorId, mergeRequest.assigneeId, ...mergeRequest.reviewerIds].filter((id) => id !== null);
    mergeRequest.subscriberIds = [...new Set(participantIds)];
    state.mergeRequests.set(mergeRequest.id, mergeRequest);
  }
}

export function seedIssues(state: SimulatorState, rng: Rng): void {
  const projects = [...state.projects.values()].filter((project) => project.issuesEnabled);
  for (const project of projects) seedLabelsAndMilestones(state, project);
  seedEpicsAndIterations(state);
  for (const project of projects) seedProjectIssues(state, rng, project);
  for (const project of projects) seedMergeRequests(state, rng, project);
  // Last, so that the project labels' and milestones' ids stay what they were before groups had any.
  seedGroupLabelsAndMilestones(state);
}
