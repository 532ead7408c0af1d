import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import * as shapes from '../../src/cost/shapes.js';
import { resolvers } from '../../src/resolvers/index.js';
import { labelsOfIssue } from '../../src/resolvers/issues/labels.js';
import type { GatewayContext } from '../../src/server/context.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { readFixture } from '../support/stub-upstream.js';

type Json = Record<string, unknown>;

/** The records of a fixture: its array's items, or the object itself. */
function records(name: string): Json[] {
  const body = readFixture(`${name}.json`);
  return (Array.isArray(body) ? body : [body]) as Json[];
}

/** The records embedded under `key` in each record (an object, or each item of an array). */
function embedded(list: Json[], key: string): Json[] {
  return list.flatMap((record): Json[] => {
    const value = record[key];
    if (Array.isArray(value)) return value as Json[];
    return value && typeof value === 'object' ? [value as Json] : [];
  });
}

const all = (...names: string[]) => names.flatMap(records);
const issueLists = all('issues/list-issues', 'issues/list-group-issues', 'issues/list-project-issues', 'issues/get-project-issue', 'issues/get-issue-admin');
const boards = all('boards/list-project-boards', 'boards/get-project-board', 'boards/create-project-board', 'boards/update-project-board');
const runnerJobs = records('runners/list-runner-jobs');
const groupProjects = all('groups/list-group-projects', 'groups/list-group-shared-projects');
// Objects the gateway builds itself, by the resolvers that build them.
const noContext = {} as GatewayContext;
const groupOfNamespace = (project: Json) => (resolvers.Project as unknown as { group: (parent: Json, args: object, context: GatewayContext) => Promise<Json> }).group(project, {}, noContext);
const groupOfShare = (share: Json) => (resolvers.SharedWithGroup as unknown as { group: (parent: Json) => Json }).group(share);

/** Each shape, and the documentation's examples of the records it describes (fixtures/gitlab-docs). */
const EXAMPLES: Array<[name: keyof typeof shapes, examples: () => Json[] | Promise<Json[]>]> = [
  ['RUNNER_SUMMARY', () => all('runners/list-all-runners', 'runners/list-group-runners', 'runners/list-owned-runners', 'runners/list-project-runners', 'runners/assign-runner-to-project')],
  ['RUNNER_DETAIL', () => all('runners/get-runner', 'runners/update-runner')],
  ['RUNNER_LOADED', () => all('runners/get-runner', 'runners/update-runner')],
  ['USER_SUMMARY', () => [...embedded(issueLists, 'author'), ...embedded(issueLists, 'assignees'), ...records('issues/list-issue-participants'), ...embedded(boards, 'assignee')]],
  ['USER_AUTHOR', () => [...embedded(all('commits/list-commit-comments', 'commits/list-commit-statuses', 'commits/set-commit-status'), 'author'), ...embedded(embedded(records('commits/list-commit-discussions'), 'notes'), 'author')]],
  ['USER_PUBLIC', () => embedded(runnerJobs, 'user')],
  ['USER_LOADED', () => embedded(runnerJobs, 'user')],
  ['USER_FULL', () => embedded(all('keys/get-key-by-id', 'keys/get-user-by-ssh-key-fingerprint'), 'user')],
  ['PROJECT_REFERENCE', () => [...embedded(records('runners/get-runner'), 'projects'), ...embedded(records('issues/create-issue-todo'), 'project')]],
  ['PROJECT_OF_JOB', () => embedded(runnerJobs, 'project')],
  ['PROJECT_OF_BOARD', () => embedded(boards, 'project')],
  ['PROJECT_IN_GROUP_DETAIL', () => [...embedded(records('groups/get-group'), 'projects'), ...embedded(records('groups/get-group'), 'shared_projects')]],
  ['PROJECT_LOADED', () => groupProjects],
  ['GROUP_RECORD', () => all('groups/list-groups', 'groups/list-subgroups', 'groups/list-descendant-groups')],
  ['GROUP_LOADED', () => all('groups/get-group', 'groups/get-group-without-projects', 'groups/update-group')],
  ['GROUP_OF_NAMESPACE', () => Promise.all(groupProjects.map(groupOfNamespace))],
  ['GROUP_OF_SHARE', () => embedded(records('groups/get-group'), 'shared_with_groups').map(groupOfShare)],
  ['ISSUE_RECORD', () => issueLists],
  ['ISSUE_AS_TO_DO_TARGET', () => embedded(records('issues/create-issue-todo'), 'target')],
  ['COMMIT_OF_JOB', () => [...embedded(runnerJobs, 'commit'), ...embedded(records('job_artifacts/keep-job-artifacts'), 'commit')]],
  ['COMMIT_LISTED', () => records('commits/list-repository-commits')],
  ['COMMIT_CHANGED', () => all('commits/cherry-pick-commit', 'commits/revert-commit')],
  ['COMMIT_OF_SUBMODULE', () => records('submodules/update-submodule-reference')],
  ['COMMIT_LOADED', () => all('commits/get-commit', 'commits/create-commit')],
  ['BOARD', () => boards],
  ['LABEL_OF_BOARD', () => [...embedded(embedded([...boards, ...all('boards/list-board-lists', 'boards/get-board-list')], 'lists'), 'label'), ...embedded(all('boards/list-board-lists', 'boards/get-board-list'), 'label'), ...embedded(boards, 'labels')]],
  ['WIKI_PAGE', () => all('wikis/get-wiki-page', 'wikis/create-wiki-page', 'wikis/edit-wiki-page')],
  ['WIKI_PAGE_LISTED', () => records('wikis/list-wiki-pages')],
  ['RUNNER_JOB', () => runnerJobs],
  ['JOB_KEPT', () => records('job_artifacts/keep-job-artifacts')],
  ['PIPELINE_OF_JOB', () => [...embedded(runnerJobs, 'pipeline'), ...embedded(records('commits/get-commit'), 'last_pipeline')]],
  ['MERGE_REQUEST_LISTED', () => all('issues/list-issue-closed-by-merge-requests', 'commits/list-commit-merge-requests', 'issues/list-issue-related-merge-requests')],
  ['MERGE_REQUEST_RECORD', () => records('issues/list-issue-related-merge-requests')],
  ['PIPELINE_OF_MERGE_REQUEST', () => embedded(records('issues/list-issue-related-merge-requests'), 'head_pipeline')],
  // An issue record names its labels; the gateway keeps each name with the issue's project.
  ['LABEL_NAMED', () => issueLists.flatMap((issue) => labelsOfIssue(issue['labels'], issue['project_id'] as number) as unknown as Json[])],
];

describe('record shapes of the cost estimate', () => {
  it.each(EXAMPLES)('%s: every key is in every example of the REST documentation', async (name, examples) => {
    const shape: shapes.RecordShape = shapes[name];
    const found = await examples();
    expect(found.length).toBeGreaterThan(0);
    for (const example of found) expect(Object.keys(example)).toEqual(expect.arrayContaining([...shape.keys]));
  });

  it('covers every shape but the id-only one with examples', () => {
    const covered = new Set(EXAMPLES.map(([name]) => name));
    const shapeNames = Object.entries(shapes).filter(([, value]) => typeof value === 'object' && value !== null && 'keys' in value).map(([name]) => name);
    expect(shapeNames.filter((name) => !covered.has(name as keyof typeof shapes))).toEqual(['ID_ONLY', 'PIPELINE_LISTED', 'PROJECT_JOB', 'COMMIT_LISTED_WITH_STATS', 'LABEL_LISTED']);
  });

  describe('against the embedded v4 server', () => {
    const harness = gatewayOverSimulator();

    it('COMMIT_LISTED_WITH_STATS: a commit list asked with_stats carries them (no documentation example shows it)', async () => {
      const listed = await harness.oracle.get<Json[]>('/projects/1/repository/commits?with_stats=true&per_page=5', DEMO_TOKENS.admin);
      expect(listed.length).toBeGreaterThan(0);
      for (const commit of listed) expect(Object.keys(commit)).toEqual(expect.arrayContaining([...shapes.COMMIT_LISTED_WITH_STATS.keys]));
    });

    it('PIPELINE_LISTED: a project\'s pipeline list carries what Entities::Ci::PipelineBasic has (no documentation example shows it)', async () => {
      const listed = await harness.oracle.get<Json[]>('/projects/1/pipelines?per_page=5', DEMO_TOKENS.admin);
      expect(listed.length).toBeGreaterThan(0);
      for (const pipeline of listed) expect(Object.keys(pipeline)).toEqual(expect.arrayContaining([...shapes.PIPELINE_LISTED.keys]));
    });

    it("PROJECT_JOB: a project's job list carries what Entities::Ci::Job has (no documentation example of the list)", async () => {
      const listed = await harness.oracle.get<Json[]>('/projects/1/jobs?per_page=5', DEMO_TOKENS.admin);
      expect(listed.length).toBeGreaterThan(0);
      for (const job of listed) expect(Object.keys(job)).toEqual(expect.arrayContaining([...shapes.PROJECT_JOB.keys]));
    });

    it('LABEL_LISTED: project and group label lists carry every key (no documentation example of them)', async () => {
      const labels = [
        ...(await harness.oracle.get<Json[]>('/projects/1/labels?per_page=100', DEMO_TOKENS.developer)),
        ...(await harness.oracle.get<Json[]>('/groups/1/labels?per_page=100', DEMO_TOKENS.developer)),
      ];
      expect(labels.length).toBeGreaterThan(10);
      for (const label of labels) expect(Object.keys(label)).toEqual(expect.arrayContaining([...shapes.LABEL_LISTED.keys]));
    });
  });
});
