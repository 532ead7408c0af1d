import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DEMO_PROJECT_ID, DEMO_JOB_TOKEN, DEMO_TOKENS, startSimulator, type Job, type Simulator } from '../../simulator/index.js';
import { readZip } from '../support/zip-reader.js';
import { call, record } from './helpers.js';

let sim: Simulator;
const { admin, maintainer, developer, guest, outsider } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

/** A demo job of gitlab-org/gitlab by name and pipeline (the pipelines of seed/artifacts.ts). */
function demoJob(name: string, pipelineId: number): Job {
  const job = [...sim.state.jobs.values()].find(
    (candidate) => candidate.projectId === ARTIFACTS_DEMO_PROJECT_ID && candidate.name === name && candidate.pipeline.id === pipelineId,
  );
  if (!job) throw new Error(`no demo job ${name} in pipeline ${pipelineId}`);
  return job;
}

async function download(path: string, headers: Record<string, string> = { 'private-token': admin }) {
  const response = await fetch(`${sim.url}${path}`, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A GET sent with its path exactly as written: fetch would resolve `..` and `%2e%2e` first. */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(sim.url);
    const req = request({ host: url.hostname, port: url.port, path: `/api/v4${path}`, headers: { 'private-token': admin } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('artifact archives', () => {
  it("are real ZIP files of the job's files, with download headers", async () => {
    const job = demoJob('build-docs', 20001);
    const archive = await download(`/projects/gitlab-org%2Fgitlab/jobs/${job.id}/artifacts`);
    expect(archive.status).toBe(200);
    expect(archive.headers.get('content-type')).toBe('application/zip');
    expect(archive.headers.get('content-disposition')).toBe(`attachment; filename="artifacts.zip"; filename*=UTF-8''artifacts.zip`);
    expect(Number(archive.headers.get('content-length'))).toBe(archive.bytes.length);
    const entries = readZip(archive.bytes);
    expect(entries.map((entry) => [entry.path, entry.bytes.toString('utf8')])).toEqual(
      sim.state.jobArtifacts.get(job.id)!.files.map((file) => [file.path, file.bytes.toString('utf8')]),
    );
  });

  it('store what does not compress and deflate what does', async () => {
    const entries = readZip((await download(`/projects/1/jobs/${demoJob('compile', 20001).id}/artifacts`)).bytes);
    expect(entries.map((entry) => [entry.path, entry.method])).toEqual([
      ['bin/gitlab-app', 0],
      ['build/version.txt', 0],
      ['build/compile.log', 8],
    ]);
    expect(entries[0]!.bytes.length).toBe(2 * 1024 * 1024 + 12_345);
    const history = [...sim.state.jobArtifacts.values()].find((artifacts) => artifacts.jobId < 794 && artifacts.expireAt === null)!;
    expect(
      readZip((await download(`/projects/${sim.state.jobs.get(history.jobId)!.projectId}/jobs/${history.jobId}/artifacts`)).bytes).length,
    ).toBe(2);
  });

  it('are 404 for a job without artifacts, with expired ones, or of another project', async () => {
    expect((await download(`/projects/1/jobs/${demoJob('rspec', 20001).id}/artifacts`)).status).toBe(404);
    expect((await download(`/projects/1/jobs/${demoJob('nightly-report', 20001).id}/artifacts`)).status).toBe(404);
    expect(JSON.parse((await download(`/projects/2/jobs/${demoJob('compile', 20001).id}/artifacts`)).bytes.toString())).toEqual({
      message: '404 Not found',
    });
  });
});

describe('archives by ref and job name', () => {
  it("come from the newest successful pipeline of the ref, the parent's job winning over the child's", async () => {
    const docs = readZip((await download('/projects/1/jobs/artifacts/main/download?job=build-docs')).bytes);
    expect(docs.find((entry) => entry.path === 'docs/index.html')?.bytes.toString()).toContain('parent pipeline');
    // Only the child pipeline has this job.
    const raw = await download('/projects/1/jobs/artifacts/main/raw/coverage/summary.txt?job=coverage-report');
    expect(raw.bytes.toString()).toBe('coverage: 87.5%\n');
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('follow branches with `/` (encoded) and tags, and answer 404 for refs and jobs with nothing', async () => {
    expect(
      (await download('/projects/1/jobs/artifacts/feature%2Fartifacts-api/raw/docs/index.html?job=build-docs')).bytes.toString(),
    ).toContain('Feature branch');
    expect((await download('/projects/1/jobs/artifacts/v18.0.0/raw/build/version.txt?job=compile')).bytes.toString()).toBe('18.0.0\n');
    expect((await download('/projects/1/jobs/artifacts/main/download?job=nightly-report')).status).toBe(404);
    expect((await download('/projects/1/jobs/artifacts/no-such-branch/download?job=compile')).status).toBe(404);
    expect(JSON.parse((await download('/projects/1/jobs/artifacts/main/download')).bytes.toString())).toEqual({ error: 'job is missing' });
  });
});

describe('single files', () => {
  it("answer the file's bytes with its name, 404 when the archive lacks it", async () => {
    const job = demoJob('build-docs', 20001);
    const file = await download(`/projects/1/jobs/${job.id}/artifacts/docs/guide/getting%20started.md`);
    expect(file.bytes.toString()).toBe('# Getting started\n\nRun `bin/setup`.\n');
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="getting started.md"; filename*=UTF-8''getting%20started.md`,
    );
    const unicode = await download(`/projects/1/jobs/${job.id}/artifacts/docs/${encodeURIComponent('ünïcode.txt')}`);
    expect(unicode.headers.get('content-disposition')).toBe(`attachment; filename="_n_code.txt"; filename*=UTF-8''%C3%BCn%C3%AFcode.txt`);
    expect((await download(`/projects/1/jobs/${job.id}/artifacts/docs/missing.txt`)).status).toBe(404);
  });

  it('refuse NUL bytes and `..` segments with 400, however they are written', async () => {
    const job = demoJob('build-docs', 20001);
    for (const path of [
      'docs/%2E%2E/notes/readme.txt',
      'docs/../notes/readme.txt',
      'docs%2F..%2Fnotes/readme.txt',
      'docs/%2e%2e/notes/readme.txt',
      'readme%00.txt',
    ]) {
      expect(await rawGet(`/projects/1/jobs/${job.id}/artifacts/${path}`)).toEqual({ status: 400, body: '{"message":"400 Bad request"}' });
    }
  });
});

describe('who may download, keep and delete', () => {
  it("lets a running job's token download from its own project only, and refuses finished jobs' tokens", async () => {
    const compile = demoJob('compile', 20001);
    expect((await download('/projects/1/jobs/artifacts/main/download?job=compile', { 'job-token': DEMO_JOB_TOKEN })).status).toBe(200);
    expect((await download(`/projects/1/jobs/${compile.id}/artifacts?job_token=${DEMO_JOB_TOKEN}`, {})).status).toBe(200);
    const elsewhere = [...sim.state.jobArtifacts.keys()].map((id) => sim.state.jobs.get(id)!).find((job) => job.projectId !== 1)!;
    expect(
      (await download(`/projects/${elsewhere.projectId}/jobs/${elsewhere.id}/artifacts`, { 'job-token': DEMO_JOB_TOKEN })).status,
    ).toBe(404);
    expect((await download(`/projects/1/jobs/${compile.id}/artifacts`, { 'job-token': 'glcbt-unknown' })).status).toBe(401);
  });

  it('follows project visibility and the Reporter rule of private projects', async () => {
    const secret = [...sim.state.jobArtifacts.values()]
      .map((artifacts) => sim.state.jobs.get(artifacts.jobId)!)
      .find((job) => job.projectId === 5);
    if (secret) {
      expect((await download(`/projects/5/jobs/${secret.id}/artifacts`, { 'private-token': outsider })).status).toBe(404);
      expect((await download(`/projects/5/jobs/${secret.id}/artifacts`, { 'private-token': guest })).status).toBe(403);
    }
    expect((await download(`/projects/1/jobs/${demoJob('compile', 20001).id}/artifacts`, {})).status).toBe(200);
  });

  it('keeps artifacts for Developers (the job comes back) and deletes them for Maintainers', async () => {
    const job = demoJob('coverage-report', 20002);
    expect((await call(sim, `/projects/1/jobs/${job.id}/artifacts/keep`, { method: 'POST', token: guest })).status).toBe(403);
    const kept = await call(sim, `/projects/1/jobs/${job.id}/artifacts/keep`, { method: 'POST', token: developer });
    expect(kept.status).toBe(200);
    expect(record(kept)).toMatchObject({
      id: job.id,
      name: 'coverage-report',
      artifacts_expire_at: null,
      artifacts: [{ file_type: 'archive', filename: 'artifacts.zip', file_format: 'zip' }, { file_type: 'metadata' }],
      web_url: `${sim.origin}/gitlab-org/gitlab/-/jobs/${job.id}`,
      runner: { id: job.runnerId },
      pipeline: { id: 20002, project_id: 1 },
    });
    expect((await call(sim, `/projects/1/jobs/${job.id}/artifacts`, { method: 'DELETE', token: developer })).status).toBe(403);
    const deleted = await call(sim, `/projects/1/jobs/${job.id}/artifacts`, { method: 'DELETE', token: maintainer });
    expect(deleted.status).toBe(204);
    expect((await download(`/projects/1/jobs/${job.id}/artifacts`)).status).toBe(404);
    expect((await call(sim, `/projects/1/jobs/${job.id}/artifacts/keep`, { method: 'POST', token: maintainer })).status).toBe(404);
  });
});
