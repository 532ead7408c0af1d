// A deterministic family of users for isolation load tests: user n has the personal access token
// `glpat-load-<n>`, the username `load-user-<n>`, and owns one private project `load-user-<n>/secret-<n>`
// with one project runner, `load-runner-<n>`. Each of them sees its own project and runner and
// nobody else's, so a response that carries another user's name, project or runner proves a leak.
// Not part of the demo data (its counts and lists stay as documented): added only on request,
// `startSimulator({ loadTestUsers: 200 })`.
import { minutesBefore } from '../rng.js';
import type { Project, Runner, User } from '../model.js';
import type { SimulatorState } from '../state.js';

export const loadTestToken = (n: number): string => `glpat-load-${n}`;
export const loadTestUsername = (n: number): string => `load-user-${n}`;
export const loadTestProjectPath = (n: number): string => `${loadTestUsername(n)}/secret-${n}`;
export const loadTestRunnerDescription = (n: number): string => `load-runner-${n}`;

/** Adds users 1..count of the family, with their tokens, projects and runners. */
export function seedLoadTestUsers(state: SimulatorState, count: number): void {
  for (let n = 1; n <= count; n++) {
    const user = loadTestUser(state, n);
    state.users.set(user.id, user);
    state.tokens.set(loadTestToken(n), { token: loadTestToken(n), userId: user.id, name: 'load test', scopes: ['api'], revoked: false, expiresAt: null });
    const project = loadTestProject(state, user, n);
    state.projects.set(project.id, project);
    const runner = loadTestRunner(state, project, n);
    state.runners.set(runner.id, runner);
  }
}

function loadTestUser(state: SimulatorState, n: number): User {
  const username = loadTestUsername(n);
  return {
    id: state.nextId('users'),
    username,
    name: `Load User ${n}`,
    email: `${username}@example.com`,
    state: 'active',
    isAdmin: false,
    createdAt: minutesBefore(state.now, 30 * 24 * 60),
    bio: `Load test user ${n}`,
    location: '',
    publicEmail: '',
    websiteUrl: '',
    organization: '',
    jobTitle: '',
    lastSignInAt: null,
    lastActivityOn: null,
    namespaceId: 10_000 + n,
  };
}

function loadTestProject(state: SimulatorState, owner: User, n: number): Project {
  const created = minutesBefore(state.now, 20 * 24 * 60);
  return {
    id: state.nextId('projects'),
    name: `secret-${n}`,
    path: `secret-${n}`,
    namespace: { kind: 'user', userId: owner.id },
    description: `Private data of ${owner.username}`,
    visibility: 'private',
    defaultBranch: 'main',
    topics: [],
    archived: false,
    createdAt: created,
    lastActivityAt: created,
    creatorId: owner.id,
    starCount: 0,
    forksCount: 0,
    openIssuesCount: 0,
    sharedRunnersEnabled: true,
    runnersToken: `GR1348941-load-project-${n}`,
    sharedWithGroups: [],
    issuesEnabled: true,
    mergeRequestsEnabled: true,
    wikiEnabled: true,
    jobsEnabled: true,
    snippetsEnabled: true,
    emptyRepo: true,
    publicJobs: false,
    buildTimeout: 3600,
    requestAccessEnabled: false,
  };
}

function loadTestRunner(state: SimulatorState, project: Project, n: number): Runner {
  return {
    id: state.nextId('runners'),
    runnerType: 'project_type',
    groupId: null,
    projectIds: [project.id],
    description: loadTestRunnerDescription(n),
    name: 'gitlab-runner',
    active: true,
    connectivity: 'online',
    contactedAt: minutesBefore(state.now, 1),
    createdAt: minutesBefore(state.now, 10 * 24 * 60),
    ipAddress: '',
    tagList: [`load-${n}`],
    runUntagged: true,
    locked: true,
    accessLevel: 'not_protected',
    maximumTimeout: null,
    maintenanceNote: null,
    version: '18.0.1',
    revision: '3ec5ab03',
    platform: 'linux',
    architecture: 'amd64',
    token: `glrt-load-runner-${n}`,
    tokenExpiresAt: null,
  };
}
