import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS_DEMO_PROJECT_ID, DEMO_JOB_TOKEN, DEMO_TOKENS, type Job } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { readZip } from '../support/zip-reader.js';

const { admin, maintainer, developer, guest } = DEMO_TOKENS;

/** The first error of a download's JSON error body. */
function firstError(body: Buffer): { message: string; extensions: Record<string, unknown> } {
  return (JSON.parse(body.toString()) as { errors: Array<{ message: string; extensions: Record<string, unknown> }> }).errors[0]!;
}

describe('job artifacts over real HTTP', () => {
  const harness = gatewayOverSimulator();
  const query = <T>(text: string, variables: Record<string, unknown> = {}, token: string = developer) =>
    harness.gateway.query<T>(text, variables, token);
  const gatewayOrigin = () => harness.gateway.url.replace(/\/graphql$/, '');

  /** A demo job of gitlab-org/gitlab by name and pipeline (simulator/data/seed/artifacts.ts). */
  function demoJob(name: string, pipelineId: number): Job {
    const job = [...harness.simulator.state.jobs.values()].find(
      (candidate) => candidate.projectId === ARTIFACTS_DEMO_PROJECT_ID && candidate.name === name && candidate.pipeline.id === pipelineId,
    );
    if (!job) throw new Error(`no demo job ${name} in pipeline ${pipelineId}`);
    return job;
  }

  /** The bytes REST itself answers, asked directly (not counted as the gateway's calls). */
  async function fromRest(path: string): Promise<Buffer> {
    const before = harness.simulator.requests.length;
    const response = await fetch(`${harness.simulator.url}${path}`, { headers: { 'private-token': admin } });
    const bytes = Buffer.from(await response.arrayBuffer());
    harness.simulator.requests.splice(before);
    return bytes;
  }

  async function download(path: string, headers: Record<string, string> = { 'private-token': developer }, method = 'GET') {
    const response = await fetch(`${gatewayOrigin()}${path}`, { headers, method });
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
  }

  /** A GET with its target exactly as written (fetch would resolve `..` and `%2e%2e` first). */
  function rawGet(target: string): Promise<{ status: number; body: string }> {
    const url = new URL(harness.gateway.url);
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: target, headers: { 'private-token': developer } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  describe('download paths and text files in GraphQL', () => {
    it("gives a job's download paths with no REST call, and reads a small text file through REST", async () => {
      const job = demoJob('build-docs', 20001);
      const result = await query<{
        project: { jobArtifacts: { archivePath: string; filePath: string; textFile: { path: string; size: number; content: string } } };
      }>(
        `query($job: JobID!) { project(fullPath: "gitlab-org/gitlab") { jobArtifacts(jobId: $job) {
           archivePath filePath(path: "docs/guide/getting started.md") textFile(path: "notes/readme.txt") { path size content } } } }`,
        { job: `gid://gitlab/Ci::Build/${job.id}` },
      );
      expect(result.errors).toBeUndefined();
      const readme = await fromRest(`/projects/1/jobs/${job.id}/artifacts/notes/readme.txt`);
      expect(result.data!.project.jobArtifacts).toEqual({
        archivePath: `/artifacts/projects/1/jobs/${job.id}/artifacts`,
        filePath: `/artifacts/projects/1/jobs/${job.id}/artifacts/docs/guide/getting%20started%2Emd`,
        textFile: { path: 'notes/readme.txt', size: readme.length, content: readme.toString('utf8') },
      });
      expect(restCalls(harness.simulator)).toEqual([
        'GET /projects/gitlab-org%2Fgitlab',
        `GET /projects/1/jobs/${job.id}/artifacts/notes/readme%2Etxt`,
      ]);
    });

    it('reads by ref and job name from the parent pipeline before its child, branch names with `/` included', async () => {
      const result = await query<{
        project: {
          main: { archivePath: string; textFile: { content: string } };
          child: { textFile: { content: string } };
          branch: { textFile: { content: string } };
        };
      }>(
        `{ project(fullPath: "gitlab-org/gitlab") {
           main: refJobArtifacts(refName: "main", jobName: "build-docs") { archivePath textFile(path: "docs/index.html") { content } }
           child: refJobArtifacts(refName: "main", jobName: "coverage-report") { textFile(path: "coverage/summary.txt") { content } }
           branch: refJobArtifacts(refName: "feature/artifacts-api", jobName: "build-docs") { textFile(path: "docs/index.html") { content } } } }`,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.main.archivePath).toBe('/artifacts/projects/1/jobs/artifacts/main/download?job=build-docs');
      expect(result.data!.project.main.textFile.content).toContain('Built by the parent pipeline.');
      expect(result.data!.project.child.textFile.content).toBe('coverage: 87.5%\n');
      expect(result.data!.project.branch.textFile.content).toContain('Feature branch preview.');
      expect(restCalls(harness.simulator)).toContain('GET /projects/1/jobs/artifacts/feature%2Fartifacts-api/raw/docs/index%2Ehtml');
    });

    it('refuses files over the size limit and files that are not text', async () => {
      const compile = demoJob('compile', 20001);
      const report = demoJob('coverage-report', 20002);
      const artifacts = harness.simulator.state.jobArtifacts.get(report.id)!;
      artifacts.files = [...artifacts.files, { path: 'build/logo.bin', bytes: Buffer.from([0xff, 0xfe, 0x00, 0x81]) }];
      const result = await query<{ project: { small: unknown; binary: unknown } }>(
        `query($compile: JobID!, $report: JobID!) { project(fullPath: "gitlab-org/gitlab") {
           small: jobArtifacts(jobId: $compile) { textFile(path: "build/compile.log", maxBytes: 100) { size } }
           binary: jobArtifacts(jobId: $report) { textFile(path: "build/logo.bin") { size } } } }`,
        { compile: `gid://gitlab/Ci::Build/${compile.id}`, report: `gid://gitlab/Ci::Build/${report.id}` },
      );
      const byPath = Object.fromEntries((result.errors ?? []).map((error) => [String(error.path?.[1]), error]));
      expect(byPath['small']).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'maxBytes' } });
      expect(byPath['small']!.message).toBe(
        `"build/compile.log" is larger than 100 bytes; download it from /artifacts/projects/1/jobs/${compile.id}/artifacts/build/compile%2Elog instead.`,
      );
      expect(byPath['binary']).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argumentName: 'path' } });
      expect(byPath['binary']!.message).toContain('is not UTF-8 text');
    });

    it("maps REST's 404 to a clear NOT_FOUND, and refuses escaping paths and bad limits before any REST call", async () => {
      const job = demoJob('build-docs', 20001);
      const variables = { job: `gid://gitlab/Ci::Build/${job.id}` };
      const missing = await query(
        `query($job: JobID!) { project(fullPath: "gitlab-org/gitlab") { jobArtifacts(jobId: $job) { textFile(path: "docs/missing.txt") { size } } } }`,
        variables,
      );
      expect(missing.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND', restStatus: 404 } });
      expect(missing.errors?.[0]?.message).toBe(
        `No artifacts for job ${job.id} of project 1: no such job, no artifacts (or they expired), or its archive has no file "docs/missing.txt", or not visible to this credential.`,
      );
      harness.simulator.resetRequests();
      for (const path of ['../../../keys/1', 'docs/./index.html', '/docs/index.html', 'docs//index.html', 'docs/index.html\u0000']) {
        const refused = await query(
          `query($job: JobID!, $path: String!) { project(fullPath: "gitlab-org/gitlab") { a: jobArtifacts(jobId: $job) { filePath(path: $path) } b: jobArtifacts(jobId: $job) { textFile(path: $path) { size } } } }`,
          { ...variables, path },
        );
        expect(refused.errors?.map((error) => error.extensions)).toEqual([
          expect.objectContaining({ code: 'BAD_USER_INPUT', argumentName: 'path' }),
          expect.objectContaining({ code: 'BAD_USER_INPUT', argumentName: 'path' }),
        ]);
      }
      const limit = await query(
        `query($job: JobID!) { project(fullPath: "gitlab-org/gitlab") { jobArtifacts(jobId: $job) { textFile(path: "a.txt", maxBytes: 0) { size } } } }`,
        variables,
      );
      expect(limit.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'maxBytes' });
      expect(restCalls(harness.simulator).filter((call) => call.includes('/artifacts'))).toEqual([]);
    });

    it('encodes a literal %2e%2e as text, so it names a file and climbs nowhere', async () => {
      const job = demoJob('build-docs', 20001);
      const result = await query(
        `query($job: JobID!) { project(fullPath: "gitlab-org/gitlab") { jobArtifacts(jobId: $job) { textFile(path: "docs/%2e%2e/keys") { size } } } }`,
        {
          job: `gid://gitlab/Ci::Build/${job.id}`,
        },
      );
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'NOT_FOUND' });
      expect(restCalls(harness.simulator)).toContain(`GET /projects/1/jobs/${job.id}/artifacts/docs/%252e%252e/keys`);
    });

    it('gives the download paths of jobs listed through their runner, from the embedded project', async () => {
      const job = demoJob('compile', 20001);
      const result = await query<{
        runner: { jobs: { nodes: Array<{ id: string; project: { id: string }; artifactsDownload: { archivePath: string } }> } };
      }>(
        `query($runner: CiRunnerID!) { runner(id: $runner) { jobs(first: 20) { nodes { id artifactsDownload { archivePath } } } } }`,
        { runner: `gid://gitlab/Ci::Runner/${job.runnerId}` },
        admin,
      );
      expect(result.errors).toBeUndefined();
      const listed = result.data!.runner.jobs.nodes.find((node) => node.id === `gid://gitlab/Ci::Build/${job.id}`);
      expect(listed?.artifactsDownload).toEqual({ archivePath: `/artifacts/projects/1/jobs/${job.id}/artifacts` });
    });
  });

  describe('keeping and deleting', () => {
    const KEEP = `mutation($input: JobArtifactsKeepInput!) { jobArtifactsKeep(input: $input) { clientMutationId errors
      job { id name status artifactsExpireAt webUrl allowFailure artifacts { nodes { fileType name size fileFormat } } runner { id } commit { shortId } }
      artifactsDownload { archivePath } } }`;
    const DESTROY = `mutation($input: JobArtifactsDestroyInput!) { jobArtifactsDestroy(input: $input) { errors } }`;

    it("keeps a job's artifacts (Developer and above) and answers the job REST returns", async () => {
      const job = demoJob('build-docs', 20004);
      const result = await query<{ jobArtifactsKeep: Record<string, unknown> }>(KEEP, {
        input: { clientMutationId: 'k', projectPath: 'gitlab-org/gitlab', jobId: `gid://gitlab/Ci::Build/${job.id}` },
      });
      expect(result.errors).toBeUndefined();
      const archive = await fromRest(`/projects/1/jobs/${job.id}/artifacts`);
      expect(result.data!.jobArtifactsKeep).toEqual({
        clientMutationId: 'k',
        errors: [],
        job: {
          id: `gid://gitlab/Ci::Build/${job.id}`,
          name: 'build-docs',
          status: 'SUCCESS',
          artifactsExpireAt: null,
          webUrl: `${harness.simulator.origin}/gitlab-org/gitlab/-/jobs/${job.id}`,
          allowFailure: false,
          artifacts: {
            nodes: [
              { fileType: 'ARCHIVE', name: 'artifacts.zip', size: String(archive.length), fileFormat: 'zip' },
              { fileType: 'METADATA', name: 'metadata.gz', size: expect.stringMatching(/^\d+$/) as unknown, fileFormat: 'gzip' },
            ],
          },
          runner: { id: `gid://gitlab/Ci::Runner/${job.runnerId}` },
          commit: { shortId: job.commit.shortId },
        },
        artifactsDownload: { archivePath: `/artifacts/projects/gitlab-org%2Fgitlab/jobs/${job.id}/artifacts` },
      });
      expect(restCalls(harness.simulator)).toEqual([`POST /projects/gitlab-org%2Fgitlab/jobs/${job.id}/artifacts/keep`]);
    });

    it('deletes artifacts for Maintainers only; afterwards keeping them is a clear NOT_FOUND', async () => {
      const job = demoJob('compile', 20005);
      const input = { projectPath: 'gitlab-org/gitlab', jobId: `gid://gitlab/Ci::Build/${job.id}` };
      const forbidden = await query(DESTROY, { input });
      expect(forbidden.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN', restStatus: 403 });
      const deleted = await query<{ jobArtifactsDestroy: { errors: string[] } }>(DESTROY, { input }, maintainer);
      expect(deleted.data!.jobArtifactsDestroy).toEqual({ errors: [] });
      const gone = await query(KEEP, { input }, maintainer);
      expect(gone.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND', restStatus: 404 } });
      expect(gone.errors?.[0]?.message).toContain(`No artifacts for job ${job.id} of project gitlab-org/gitlab`);
      expect(restCalls(harness.simulator)).toEqual([
        `DELETE /projects/gitlab-org%2Fgitlab/jobs/${job.id}/artifacts`,
        `DELETE /projects/gitlab-org%2Fgitlab/jobs/${job.id}/artifacts`,
        `POST /projects/gitlab-org%2Fgitlab/jobs/${job.id}/artifacts/keep`,
      ]);
    });

    it('refuses job IDs of other classes before any REST call', async () => {
      const result = await query(KEEP, { input: { projectPath: 'gitlab-org/gitlab', jobId: 'gid://gitlab/Ci::Runner/1' } });
      // The JobID scalar refuses it while reading the variable.
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });

  describe('the download route', () => {
    it('streams an archive byte for byte as REST holds it, with download headers', async () => {
      const job = demoJob('compile', 20001);
      const expected = await fromRest(`/projects/1/jobs/${job.id}/artifacts`);
      const archive = await download(`/artifacts/projects/gitlab-org%2Fgitlab/jobs/${job.id}/artifacts`);
      expect(archive.status).toBe(200);
      expect(archive.bytes.length).toBeGreaterThan(2 * 1024 * 1024);
      expect(archive.bytes.equals(expected)).toBe(true);
      expect(readZip(archive.bytes).map((entry) => entry.path)).toEqual(['bin/gitlab-app', 'build/version.txt', 'build/compile.log']);
      expect(
        Object.fromEntries(
          ['content-type', 'content-length', 'content-disposition', 'x-content-type-options'].map((name) => [
            name,
            archive.headers.get(name),
          ]),
        ),
      ).toEqual({
        'content-type': 'application/zip',
        'content-length': String(expected.length),
        'content-disposition': `attachment; filename="artifacts.zip"; filename*=UTF-8''artifacts.zip`,
        'x-content-type-options': 'nosniff',
      });
      expect(restCalls(harness.simulator)).toEqual([`GET /projects/gitlab-org%2Fgitlab/jobs/${job.id}/artifacts`]);
      expect(harness.simulator.requests[0]!.query).toEqual({});
    });

    it("serves the archive and single files by ref with the caller's job token, header or query", async () => {
      const viaHeader = await download('/artifacts/projects/1/jobs/artifacts/main/download?job=build-docs', {
        'job-token': DEMO_JOB_TOKEN,
      });
      expect(
        readZip(viaHeader.bytes)
          .find((entry) => entry.path === 'docs/index.html')
          ?.bytes.toString(),
      ).toContain('parent pipeline');
      const viaQuery = await download(
        `/artifacts/projects/1/jobs/artifacts/feature%2Fartifacts-api/raw/docs/index.html?job=build-docs&job_token=${DEMO_JOB_TOKEN}`,
        {},
      );
      expect(viaQuery.bytes.toString()).toContain('Feature branch preview.');
      expect(viaQuery.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(viaQuery.headers.get('content-disposition')).toMatch(/^attachment; filename="index\.html"/);
      // The job token went upstream as the JOB-TOKEN header, never in a URL.
      expect(harness.simulator.requests.map((recorded) => recorded.query)).toEqual([{ job: 'build-docs' }, { job: 'build-docs' }]);
    });

    it('answers HEAD with the headers only', async () => {
      const job = demoJob('build-docs', 20001);
      const head = await download(`/artifacts/projects/1/jobs/${job.id}/artifacts/notes/readme.txt`, { 'private-token': guest }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe('23');
      expect(head.bytes.length).toBe(0);
    });

    it("answers REST's 404 and 403 as JSON errors with REST's status", async () => {
      const job = demoJob('nightly-report', 20001);
      const expired = await download(`/artifacts/projects/1/jobs/${job.id}/artifacts`);
      expect(expired.status).toBe(404);
      expect(expired.headers.get('content-type')).toContain('application/json');
      expect(JSON.parse(expired.bytes.toString())).toEqual({
        errors: [
          {
            message: `No artifacts for job ${job.id} of project 1: no such job, no artifacts (or they expired), or not visible to this credential.`,
            extensions: { code: 'NOT_FOUND', restStatus: 404, restMessage: '404 Not Found', requestId: expect.any(String) as unknown },
          },
        ],
      });
      const noJob = await download('/artifacts/projects/1/jobs/artifacts/main/download?job=no-such-job');
      expect(firstError(noJob.bytes).message).toBe(
        'No artifacts for the latest successful "no-such-job" job on main of project 1: no such job, no artifacts (or they expired), or not visible to this credential.',
      );
      const hidden = await download('/artifacts/projects/gitlab-org%2Fsecurity-fixes/jobs/1/artifacts', {
        'private-token': DEMO_TOKENS.outsider,
      });
      expect(firstError(hidden.bytes)).toMatchObject({
        message: 'Project gitlab-org/security-fixes does not exist, or is not visible to this credential.',
        extensions: { code: 'NOT_FOUND' },
      });
      const badToken = await download('/artifacts/projects/1/jobs/artifacts/main/download?job=compile', {
        'job-token': 'glcbt-expired-token',
      });
      expect(badToken.status).toBe(401);
      expect(badToken.bytes.toString()).not.toContain('glcbt-expired-token');
    });

    it.each([
      ['..', 'docs/../notes/readme.txt'],
      ['%2e%2e', 'docs/%2e%2e/notes/readme.txt'],
      ['%2E%2E', 'docs/%2E%2E/%2E%2E/%2E%2E/keys/1'],
      ['an encoded slash around ..', 'docs%2F..%2Fnotes/readme.txt'],
      ['a NUL byte', 'notes/readme%00.txt'],
      ['an empty segment', 'docs//index.html'],
    ])('refuses an artifact path with %s (400) before any REST call', async (_case, path) => {
      const job = demoJob('build-docs', 20001);
      const answer = await rawGet(`/artifacts/projects/1/jobs/${job.id}/artifacts/${path}`);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ errors: [{ extensions: { code: 'BAD_USER_INPUT' } }] });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('refuses malformed download requests with JSON and no REST call', async () => {
      expect((await rawGet('/artifacts/projects/1/jobs/artifacts/main/download')).status).toBe(400);
      expect((await rawGet('/artifacts/projects/1/jobs/abc/artifacts')).status).toBe(404);
      expect((await rawGet('/artifacts/projects/1/jobs/1/artifacts/%E0%A4%A')).status).toBe(400);
      expect((await download('/artifacts/projects/1/jobs/1/artifacts', { 'private-token': developer }, 'POST')).status).toBe(405);
      expect(restCalls(harness.simulator)).toEqual([]);
    });
  });
});
