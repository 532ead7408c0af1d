import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { FIXTURES_DIR, readFixture, startStubUpstream } from '../support/stub-upstream.js';

/**
 * The job artifacts fixture of the REST documentation (its only JSON body: the job that keeping
 * artifacts answers), served by a stub upstream, maps through the schema without error.
 */
type RestJob = Record<string, unknown> & { commit: Record<string, unknown> };
const keep = readFixture('job_artifacts/keep-job-artifacts.json') as RestJob;

const KEEP = `mutation { jobArtifactsKeep(input: { projectPath: "group/project", jobId: "gid://gitlab/Ci::Build/42" }) { errors
  job { id name status stage refName createdByTag coverage allowFailure createdAt startedAt finishedAt duration failureReason webUrl
        artifacts { nodes { fileType name size fileFormat } } artifactsExpireAt runner { id } user { id } project { id } artifactsDownload { archivePath }
        commit { shortId title message authorName authorEmail createdAt } }
  artifactsDownload { archivePath filePath(path: "coverage/index.html") } } }`;

const CASES: Record<string, { query: string; expected: unknown }> = {
  'keep-job-artifacts.json': {
    query: KEEP,
    expected: {
      jobArtifactsKeep: {
        errors: [],
        job: {
          id: 'gid://gitlab/Ci::Build/42',
          name: keep['name'],
          status: String(keep['status']).toUpperCase(),
          stage: keep['stage'],
          refName: keep['ref'],
          createdByTag: keep['tag'],
          coverage: keep['coverage'],
          allowFailure: keep['allow_failure'],
          createdAt: keep['created_at'],
          startedAt: keep['started_at'],
          finishedAt: keep['finished_at'],
          duration: keep['duration'],
          failureReason: keep['failure_reason'],
          webUrl: keep['web_url'],
          artifacts: { nodes: [] },
          artifactsExpireAt: null,
          runner: null,
          user: null,
          // The keep answer names no project, so the job cannot say where its artifacts are;
          // the payload can, from the mutation's own input.
          project: null,
          artifactsDownload: null,
          commit: {
            shortId: keep.commit['short_id'],
            title: keep.commit['title'],
            message: keep.commit['message'],
            authorName: keep.commit['author_name'],
            authorEmail: keep.commit['author_email'],
            createdAt: keep.commit['created_at'],
          },
        },
        artifactsDownload: {
          archivePath: '/artifacts/projects/group%2Fproject/jobs/42/artifacts',
          filePath: '/artifacts/projects/group%2Fproject/jobs/42/artifacts/coverage/index%2Ehtml',
        },
      },
    },
  },
};

describe('job artifacts fixtures from the REST documentation', () => {
  let stub: Awaited<ReturnType<typeof startStubUpstream>>;
  let gateway: TestGateway;

  beforeAll(async () => {
    stub = await startStubUpstream([{ method: 'POST', path: '/projects/group%2Fproject/jobs/42/artifacts/keep', body: keep }]);
    gateway = await startTestGateway(stub.url);
  });

  afterAll(async () => {
    await gateway?.close();
    await stub?.close();
  });

  it('covers every file of fixtures/gitlab-docs/job_artifacts/', () => {
    const files = readdirSync(new URL('job_artifacts/', FIXTURES_DIR)).filter((name) => name.endsWith('.json'));
    expect(Object.keys(CASES).sort()).toEqual(files.sort());
  });

  it.each(Object.entries(CASES))('%s maps through the schema', async (_name, { query, expected }) => {
    const result = await gateway.query(query, {}, 'glpat-contract');
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual(expected);
    expect(stub.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /projects/group%2Fproject/jobs/42/artifacts/keep',
    ]);
  });
});
