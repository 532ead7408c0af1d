// The embedded server's records hold GitLab's whole entities, not the documentation's examples of
// them: each is held to the keys its Grape entity exposes (test/fixtures/gitlab-entities/
// exposures.json) and to GitLab's own JSON Schema where one exists (schemas/), and its added
// values are checked against the server's other answers about the same thing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

type Row = Record<string, unknown>;

interface Exposure {
  keys: string[];
  conditional: Record<string, string>;
  nested?: Record<string, string[]>;
}

interface Schema {
  required?: string[];
  properties?: Record<string, unknown>;
  additionalProperties?: boolean;
}

const FIXTURES = new URL('../fixtures/gitlab-entities/', import.meta.url);
const EXPOSURES = JSON.parse(readFileSync(new URL('exposures.json', FIXTURES), 'utf8')) as Record<string, Exposure>;
const schema = (file: string) => JSON.parse(readFileSync(new URL(`schemas/public_api/v4/${file}`, FIXTURES), 'utf8')) as Schema;

/** Every key the entity always sends, and none it never sends. */
function expectEntity(value: unknown, entity: string): void {
  const exposure = EXPOSURES[entity];
  if (!exposure) throw new Error(`no exposures for ${entity}`);
  const keys = Object.keys(value as Row);
  expect({ entity, missing: exposure.keys.filter((key) => !keys.includes(key)) }).toEqual({ entity, missing: [] });
  const allowed = new Set([...exposure.keys, ...Object.keys(exposure.conditional)]);
  expect({ entity, extra: keys.filter((key) => !allowed.has(key)) }).toEqual({ entity, extra: [] });
  for (const [key, nested] of Object.entries(exposure.nested ?? {})) expect(Object.keys((value as Row)[key] as Row)).toEqual(nested);
}

/** The schema's required keys, and only its properties when it allows no others. */
function expectSchema(value: unknown, file: string, part: Schema = schema(file)): void {
  const keys = Object.keys(value as Row);
  expect({ file, missing: (part.required ?? []).filter((key) => !keys.includes(key)) }).toEqual({ file, missing: [] });
  if (part.additionalProperties === false) {
    expect({ file, extra: keys.filter((key) => !(key in (part.properties ?? {}))) }).toEqual({ file, extra: [] });
  }
}

let sim: Simulator;
const { admin, maintainer, developer } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

const get = async (path: string, token: string) => record(await call(sim, path, { token }));
const getList = async (path: string, token: string) => list(await call(sim, path, { token }));

describe("a project's jobs (Entities::Ci::Job)", () => {
  it('send the whole job, commit, pipeline and user, and the job token setting as `project`', async () => {
    const jobs = await getList('/projects/1/jobs?per_page=100', maintainer);
    const job = jobs.find((candidate) => candidate['status'] !== 'failed')!;
    expectEntity(job, 'API::Entities::Ci::Job');
    expectSchema(job, 'job.json');
    expectEntity(job['commit'], 'API::Entities::Commit');
    expectSchema(job['commit'], 'commit/basic.json');
    expectEntity(job['pipeline'], 'API::Entities::Ci::PipelineBasic');
    expectSchema(job['pipeline'], 'pipeline/basic.json');
    expectEntity(job['user'], 'API::Entities::User');
    expectSchema(job['user'], 'user/basic.json');
    const failed = jobs.find((candidate) => candidate['status'] === 'failed')!;
    expectEntity(failed, 'API::Entities::Ci::Job');
    expect(failed['failure_reason']).toEqual(expect.any(String));
  });

  it("takes the added values from the server's other records", async () => {
    const [job] = await getList('/projects/1/jobs?per_page=1', maintainer);
    const project = await get('/projects/1', maintainer);
    const commit = job!['commit'] as Row;
    expect(commit['web_url']).toBe(`${String(project['web_url'])}/-/commit/${String(commit['id'])}`);
    const pipeline = job!['pipeline'] as Row;
    // The job's pipeline is the project's pipeline record of that id, as its pipelines list it.
    const listed = (await getList('/projects/1/pipelines?per_page=100', maintainer)).find((row) => row['id'] === pipeline['id']);
    expect(pipeline).toEqual(listed);
    expect(await get(`/projects/1/pipelines/${String(pipeline['id'])}`, maintainer)).toMatchObject(pipeline);
    expect(job!['project']).toEqual({ ci_job_token_scope_enabled: false });
    sim.state.projects.get(1)!.ciJobTokenScopeEnabled = true;
    try {
      expect((await get(`/projects/1/jobs/${String(job!['id'])}`, maintainer))['project']).toEqual({ ci_job_token_scope_enabled: true });
    } finally {
      delete sim.state.projects.get(1)!.ciJobTokenScopeEnabled;
    }
  });
});

describe("a runner's jobs (Entities::Ci::JobBasicWithProject)", () => {
  it("are the project's job records without artifacts and runner, with the project's identity", async () => {
    const [job] = await getList('/runners/36/jobs?per_page=1', maintainer);
    expectEntity(job, 'API::Entities::Ci::JobBasicWithProject');
    expectEntity(job!['project'], 'API::Entities::ProjectIdentity');
    expectSchema(job!['project'], 'project/identity.json');
    const project = job!['project'] as Row;
    const full = await get(`/projects/${String(project['id'])}`, maintainer);
    expect(full).toMatchObject(project);
    const asProjectJob = await get(`/projects/${String(project['id'])}/jobs/${String(job!['id'])}`, maintainer);
    for (const key of ['user', 'commit', 'pipeline', 'web_url', 'allow_failure', 'erased_at']) expect(job![key]).toEqual(asProjectJob[key]);
  });
});

describe('boards (Entities::Board)', () => {
  it("embed the project as BasicProjectDetails, the project's own values, in reads and writes", async () => {
    const board = await get('/projects/1/boards/1', maintainer);
    expectSchema(board, 'board.json');
    expectSchema(board['project'], 'board.json', schema('board.json').properties!['project'] as Schema);
    expectEntity(board['project'], 'API::Entities::BasicProjectDetails');
    expect(await get('/projects/1', maintainer)).toMatchObject(board['project'] as Row);
    const updated = await get('/projects/1/boards/1', maintainer);
    const written = record(await call(sim, '/projects/1/boards/1', { method: 'PUT', token: maintainer, json: { name: updated['name'] } }));
    expect(written['project']).toEqual(board['project']);
  });
});

describe('merge requests (MergeRequestBasic)', () => {
  it('send every field of the basic entity in lists', async () => {
    const mergeRequests = await getList('/projects/1/merge_requests?state=all&per_page=100', maintainer);
    expect(mergeRequests.length).toBeGreaterThan(0);
    for (const mergeRequest of mergeRequests) {
      expectEntity(mergeRequest, 'API::Entities::MergeRequestBasic');
      expectSchema(mergeRequest, 'merge_request.json');
    }
  });

  it('derive the merge status, the merger, squash and the task list from the merge request and its project', async () => {
    // A project with a merged merge request, an open draft and an open one in conflict.
    const projectId = [...sim.state.projects.keys()].find((id) => {
      const ofProject = [...sim.state.mergeRequests.values()].filter((mergeRequest) => mergeRequest.projectId === id && mergeRequest.mergeStatus !== 'unchecked');
      const opened = ofProject.filter((mergeRequest) => mergeRequest.state === 'opened');
      return ofProject.some((mergeRequest) => mergeRequest.state === 'merged') && opened.some((mergeRequest) => mergeRequest.draft) && opened.some((mergeRequest) => !mergeRequest.draft && mergeRequest.mergeStatus === 'cannot_be_merged');
    })!;
    const project = await get(`/projects/${projectId}`, admin);
    const readAll = () => getList(`/projects/${projectId}/merge_requests?state=all&per_page=100`, admin);
    const mergeRequests = await readAll();
    const merged = mergeRequests.find((row) => row['state'] === 'merged')!;
    expect(merged).toMatchObject({ detailed_merge_status: 'not_open', merge_user: merged['merged_by'] });
    expect(merged['merged_by']).toMatchObject({ id: expect.any(Number) as number, username: expect.any(String) as string });
    for (const row of mergeRequests.filter((candidate) => candidate['state'] !== 'merged')) expect([row['merged_by'], row['merge_user']]).toEqual([null, null]);
    // DetailedMergeStatusService: unchecked before any check, then the first check that fails.
    const detailed = (row: Row) =>
      row['merge_status'] === 'unchecked' ? 'unchecked' : row['state'] !== 'opened' ? 'not_open' : row['draft'] ? 'draft_status' : row['merge_status'] === 'cannot_be_merged' ? 'conflict' : 'mergeable';
    expect([...new Set(mergeRequests.map(detailed))]).toEqual(expect.arrayContaining(['not_open', 'draft_status', 'conflict']));
    for (const row of mergeRequests) {
      expect(row['detailed_merge_status']).toBe(detailed(row));
      expect(row['has_conflicts']).toBe(row['merge_status'] === 'cannot_be_merged');
      expect(row['squash']).toBe(['always', 'default_on'].includes(project['squash_option'] as string));
      expect(row['blocking_discussions_resolved']).toBe(true);
      expect(row['assignees']).toEqual(row['assignee'] === null ? [] : [row['assignee']]);
    }
    const opened = mergeRequests.find((row) => row['state'] === 'opened')!;
    const path = `/projects/${projectId}/merge_requests/${String(opened['iid'])}`;
    const description = 'Steps:\n\n- [x] write it\n- [ ] test it\n* [X] ship it\n1. [ ] tell\n\nNot - [ ] a task';
    expect((await call(sim, path, { method: 'PUT', token: admin, json: { description } })).status).toBe(200);
    const listed = (await readAll()).find((row) => row['iid'] === opened['iid'])!;
    expect(listed['task_completion_status']).toEqual({ count: 4, completed_count: 2 });
    expect((await get(path, admin))['task_completion_status']).toEqual(listed['task_completion_status']);
  });
});

describe('users', () => {
  it('of jobs and other users are Entities::User, with `skype`', async () => {
    const other = await get('/users/1', developer);
    expectEntity(other, 'API::Entities::User');
    expect(other['skype']).toBe('');
  });

  it('are UserPublic to themselves at GET /user, with no administrator fields', async () => {
    const me = await get('/user', developer);
    expectEntity(me, 'API::Entities::UserPublic');
    expectSchema(me, 'user/public.json');
  });

  it('are UserWithAdmin and UserDetailsWithAdmin to administrators, with their namespace', async () => {
    const me = await get('/user', admin);
    expectEntity(me, 'API::Entities::UserWithAdmin');
    expectSchema(me, 'user/admin.json');
    expect(await get(`/namespaces/${String(me['namespace_id'])}`, admin)).toMatchObject({ kind: 'user', full_path: me['username'] });
    for (const user of await getList('/users?per_page=100', admin)) {
      expectEntity(user, 'API::Entities::UserWithAdmin');
      expectSchema(user, 'user/admin.json');
    }
    const developerId = (await get('/user', developer))['id'] as number;
    const detail = await get(`/users/${developerId}`, admin);
    expectEntity(detail, 'API::Entities::UserDetailsWithAdmin');
    const levels = sim.state.memberships.filter((membership) => membership.userId === developerId).map((membership) => membership.accessLevel);
    expect(detail['highest_role']).toBe(Math.max(0, ...levels));
    expect(detail['highest_role']).toBeGreaterThan(0);
  });
});
