// Job artifacts in GitLab's own dialect, asked the way GitLab's job artifact pages ask (named
// operations, fragments, variables typed with GitLab's scalars): every document validates against
// the schema, and runs over real HTTP against the gateway and the embedded v4 server, with the
// answers checked against REST.
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type Job } from '../../simulator/index.js';
import { createExecutableSchema } from '../../src/schema/executable.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const { admin, maintainer, developer } = DEMO_TOKENS;
const schema = createExecutableSchema();

const ARTIFACT_FRAGMENT = `
fragment JobArtifactFields on CiJobArtifact {
  id
  name
  fileType
  downloadPath
  size
  expireAt
}`;

const GET_RUNNER_JOB_ARTIFACTS = `${ARTIFACT_FRAGMENT}
query getRunnerJobArtifacts($id: CiRunnerID!, $first: Int) {
  runner(id: $id) {
    id
    jobs(first: $first) {
      nodes {
        id
        webPath
        browseArtifactsPath
        artifacts { count nodes { ...JobArtifactFields } }
      }
    }
  }
}`;

const DESTROY_ARTIFACT = `${ARTIFACT_FRAGMENT}
mutation destroyArtifact($id: CiJobArtifactID!) {
  artifactDestroy(input: { id: $id }) { artifact { ...JobArtifactFields } errors }
}`;

const BULK_DESTROY_ARTIFACTS = `
mutation bulkDestroyJobArtifacts($projectId: ProjectID!, $ids: [CiJobArtifactID!]!) {
  bulkDestroyJobArtifacts(input: { projectId: $projectId, ids: $ids }) { destroyedCount destroyedIds errors }
}`;

const DOCUMENTS = { GET_RUNNER_JOB_ARTIFACTS, DESTROY_ARTIFACT, BULK_DESTROY_ARTIFACTS };

interface RestJobRecord {
  id: number;
  web_url: string;
  artifacts_expire_at: string | null;
  artifacts: Array<{ file_type: string; filename: string; size: number }>;
}
interface GqlArtifact {
  id: string;
  name: string;
  fileType: string;
  downloadPath: string;
  size: string;
  expireAt: string | null;
}

/** `gid://gitlab/Ci::JobArtifact/<project>p<job>j<type>`, the type as its place in GitLab's enum. */
const FILE_TYPE_INDEX: Record<string, number> = { archive: 2, metadata: 18 };
const artifactGid = (projectId: number, jobId: number, fileType: string) => `gid://gitlab/Ci::JobArtifact/${projectId}p${jobId}j${FILE_TYPE_INDEX[fileType]!}`;

describe('job artifacts in GitLab\'s dialect', () => {
  const harness = gatewayOverSimulator();

  /** Jobs with artifacts that the maintainer can manage, newest first, by runner. */
  function jobsWithArtifacts(): Job[] {
    const { state } = harness.simulator;
    return [...state.jobArtifacts.keys()].map((id) => state.jobs.get(id)!).filter((job) => job.projectId === 1).sort((a, b) => b.id - a.id);
  }

  it.each(Object.entries(DOCUMENTS))('%s validates against the schema', (_name, document) => {
    expect(validate(schema, parse(document))).toEqual([]);
  });

  it('lists each job\'s artifact files as its REST record does, with their IDs and download paths', async () => {
    const runnerId = jobsWithArtifacts()[0]!.runnerId;
    const restJobs = await harness.oracle.get<Array<{ id: number; project: { id: number; path_with_namespace: string } }>>(`/runners/${runnerId}/jobs?per_page=10`, admin);
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ runner: { jobs: { nodes: Array<{ id: string; artifacts: { count: number; nodes: GqlArtifact[] } }> } } }>(
      GET_RUNNER_JOB_ARTIFACTS,
      { id: `gid://gitlab/Ci::Runner/${runnerId}`, first: 10 },
      admin,
    );
    expect(result.errors).toBeUndefined();
    const calls = restCalls(harness.simulator);
    let withFiles = 0;
    for (const [index, job] of restJobs.entries()) {
      const record = await harness.oracle.get<RestJobRecord>(`/projects/${job.project.id}/jobs/${job.id}`, admin);
      const node = result.data!.runner.jobs.nodes[index]!;
      if (record.artifacts.length > 0) withFiles++;
      expect(node.artifacts).toEqual({
        count: record.artifacts.length,
        nodes: record.artifacts.map((file) => ({
          id: artifactGid(job.project.id, job.id, file.file_type),
          name: file.filename,
          fileType: file.file_type.toUpperCase(),
          downloadPath: `/${job.project.path_with_namespace}/-/jobs/${job.id}/artifacts/download?file_type=${file.file_type}`,
          size: String(file.size),
          expireAt: record.artifacts_expire_at,
        })),
      });
    }
    expect(withFiles).toBeGreaterThan(0);
    // The runner, its jobs, then one job record per job.
    expect(calls.filter((call) => /^GET \/projects\/\d+\/jobs\/\d+$/.test(call))).toHaveLength(restJobs.length);
    expect(calls).toHaveLength(2 + restJobs.length);
  });

  it('destroys an artifact file, and with it the job\'s others, for Maintainers', async () => {
    const job = jobsWithArtifacts()[0]!;
    const id = artifactGid(job.projectId, job.id, 'archive');
    const refused = await harness.gateway.query(DESTROY_ARTIFACT, { id }, developer);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });

    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ artifactDestroy: { artifact: GqlArtifact; errors: string[] } }>(DESTROY_ARTIFACT, { id }, maintainer);
    expect(result.errors).toBeUndefined();
    expect(result.data!.artifactDestroy).toMatchObject({ errors: [], artifact: { id, name: 'artifacts.zip', fileType: 'ARCHIVE' } });
    expect(restCalls(harness.simulator)).toEqual([`GET /projects/${job.projectId}/jobs/${job.id}`, `DELETE /projects/${job.projectId}/jobs/${job.id}/artifacts`]);
    const record = await harness.oracle.get<RestJobRecord>(`/projects/${job.projectId}/jobs/${job.id}`, maintainer);
    expect(record.artifacts).toEqual([]);

    const again = await harness.gateway.query<{ artifactDestroy: { artifact: GqlArtifact | null; errors: string[] } }>(DESTROY_ARTIFACT, { id }, maintainer);
    expect(again.data!.artifactDestroy).toEqual({ artifact: null, errors: ['The job has no such artifact file.'] });
  });

  it('destroys the files of several jobs, one REST deletion per job', async () => {
    const [first, second] = jobsWithArtifacts().slice(1, 3);
    const ids = [artifactGid(1, first!.id, 'archive'), artifactGid(1, first!.id, 'metadata'), artifactGid(1, second!.id, 'archive')];
    harness.simulator.resetRequests();
    const result = await harness.gateway.query<{ bulkDestroyJobArtifacts: { destroyedCount: number; destroyedIds: string[]; errors: string[] } }>(
      BULK_DESTROY_ARTIFACTS,
      { projectId: 'gid://gitlab/Project/1', ids },
      maintainer,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data!.bulkDestroyJobArtifacts).toEqual({ destroyedCount: 3, destroyedIds: ids, errors: [] });
    expect(restCalls(harness.simulator).sort()).toEqual([first!.id, second!.id].map((jobId) => `DELETE /projects/1/jobs/${jobId}/artifacts`).sort());
    for (const job of [first!, second!]) {
      expect((await harness.oracle.call('GET', `/projects/1/jobs/${job.id}/artifacts`, maintainer)).status).toBe(404);
    }
  });

  it('refuses artifact IDs of another project, or that no artifact has, before any REST call', async () => {
    const job = jobsWithArtifacts()[3]!;
    for (const ids of [[artifactGid(2, job.id, 'archive')], ['gid://gitlab/Ci::JobArtifact/12345']]) {
      const result = await harness.gateway.query(BULK_DESTROY_ARTIFACTS, { projectId: 'gid://gitlab/Project/1', ids }, maintainer);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'ids' });
    }
    expect(restCalls(harness.simulator)).toEqual([]);
  });
});
