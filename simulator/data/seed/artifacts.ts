import { createCipheriv } from 'node:crypto';
import type { ArtifactFile, Job, JobArtifacts, JobStatus, Runner } from '../model.js';
import { minutesBefore, Rng } from '../rng.js';
import type { SimulatorState } from '../state.js';
import { BUSY_RUNNERS } from './jobs.js';

/** The CI job token of the demo's running `deploy-staging` job of gitlab-org/gitlab. */
export const DEMO_JOB_TOKEN = 'glcbt-demo-deploy-staging';

/** Where the artifacts demo lives: gitlab-org/gitlab, whose pipelines below are the newest. */
export const ARTIFACTS_DEMO_PROJECT_ID = 1;

/** How long artifacts live when the job does not say otherwise (GitLab's default `expire_in`). */
const DEFAULT_EXPIRY_DAYS = 30;

const text = (value: string) => Buffer.from(value, 'utf8');

/**
 * Bytes that look random and do not compress, made fast and the same on every start: AES-CTR over
 * zeros with a fixed key. For the large archive that streaming is tested with.
 */
function incompressible(size: number, label: string): Buffer {
  const key = Buffer.alloc(16);
  key.write(label.slice(0, 16), 'latin1');
  return createCipheriv('aes-128-ctr', key, Buffer.alloc(16)).update(Buffer.alloc(size));
}

/** The files a job of the random demo history uploads, by its stage. */
function historyFiles(job: Job): ArtifactFile[] {
  if (job.stage === 'build') {
    return [
      { path: `build/${job.name}.log`, bytes: text(`${job.name} #${job.id} on ${job.ref}\nbuild succeeded in ${job.duration ?? 0} s\n`) },
      { path: 'dist/manifest.json', bytes: text(`${JSON.stringify({ job: job.id, ref: job.ref, sha: job.commit.id }, null, 2)}\n`) },
    ];
  }
  return [
    { path: 'reports/junit.xml', bytes: text(`<?xml version="1.0"?>\n<testsuites name="${job.name}" tests="42" failures="0"/>\n`) },
    { path: 'coverage/summary.txt', bytes: text(`coverage: ${job.coverage ?? 0}%\n`) },
  ];
}

function daysAfter(iso: string, days: number): string {
  return new Date(Date.parse(iso) + days * 24 * 60 * 60_000).toISOString();
}

interface PipelinePlan {
  id: number;
  ref: string;
  tag?: boolean;
  status: JobStatus;
  minutesAgo: number;
  parentId?: number;
  jobs: Array<{ name: string; stage: string; status?: JobStatus; files?: ArtifactFile[]; expired?: boolean }>;
}

/**
 * Pipelines of gitlab-org/gitlab newer than the random history, so that "latest successful pipeline
 * of a ref" is known: a parent pipeline on main whose child pipeline has a job of the same name
 * (the parent's wins, rest-v4-api.md "Job artifacts"), a newer failed pipeline on main (ignored),
 * a branch whose name holds `/`, a tag, and a running job whose job token can download them.
 */
function demoPipelines(): PipelinePlan[] {
  return [
    {
      id: 20001,
      ref: 'main',
      status: 'success',
      minutesAgo: 180,
      jobs: [
        {
          name: 'compile',
          stage: 'build',
          files: [
            { path: 'bin/gitlab-app', bytes: incompressible(2 * 1024 * 1024 + 12_345, 'gitlab-app') },
            { path: 'build/version.txt', bytes: text('18.1.0-pre\n') },
            {
              path: 'build/compile.log',
              bytes: text(Array.from({ length: 200 }, (_, line) => `[${line}] compiling module ${line % 7}\n`).join('')),
            },
          ],
        },
        {
          name: 'build-docs',
          stage: 'build',
          files: [
            { path: 'docs/index.html', bytes: text('<h1>GitLab docs</h1>\n<p>Built by the parent pipeline.</p>\n') },
            { path: 'docs/guide/getting started.md', bytes: text('# Getting started\n\nRun `bin/setup`.\n') },
            { path: 'docs/ünïcode.txt', bytes: text('Names are UTF-8 in the archive.\n') },
            { path: 'notes/readme.txt', bytes: text('Parent pipeline notes.\n') },
          ],
        },
        { name: 'rspec', stage: 'test' },
        { name: 'nightly-report', stage: 'test', files: [{ path: 'report.txt', bytes: text('stale\n') }], expired: true },
      ],
    },
    {
      id: 20002,
      ref: 'main',
      status: 'success',
      minutesAgo: 170,
      parentId: 20001,
      jobs: [
        {
          name: 'build-docs',
          stage: 'build',
          files: [{ path: 'docs/index.html', bytes: text('<h1>GitLab docs</h1>\n<p>Built by the child pipeline.</p>\n') }],
        },
        { name: 'coverage-report', stage: 'test', files: [{ path: 'coverage/summary.txt', bytes: text('coverage: 87.5%\n') }] },
      ],
    },
    {
      id: 20003,
      ref: 'main',
      status: 'failed',
      minutesAgo: 60,
      jobs: [
        {
          name: 'build-docs',
          stage: 'build',
          status: 'failed',
          files: [{ path: 'docs/index.html', bytes: text('<h1>Broken build</h1>\n') }],
        },
      ],
    },
    {
      id: 20004,
      ref: 'feature/artifacts-api',
      status: 'success',
      minutesAgo: 90,
      jobs: [
        {
          name: 'build-docs',
          stage: 'build',
          files: [{ path: 'docs/index.html', bytes: text('<h1>GitLab docs</h1>\n<p>Feature branch preview.</p>\n') }],
        },
      ],
    },
    {
      id: 20005,
      ref: 'v18.0.0',
      tag: true,
      status: 'success',
      minutesAgo: 2000,
      jobs: [{ name: 'compile', stage: 'build', files: [{ path: 'build/version.txt', bytes: text('18.0.0\n') }] }],
    },
    { id: 20006, ref: 'main', status: 'running', minutesAgo: 5, jobs: [{ name: 'deploy-staging', stage: 'deploy', status: 'running' }] },
  ];
}

/** An instance runner that already ran jobs and is not one of the busy ones, to run the demo jobs. */
function demoRunner(state: SimulatorState): Runner | undefined {
  const ran = new Set([...state.jobs.values()].map((job) => job.runnerId));
  return [...state.runners.values()].find(
    (runner) =>
      runner.runnerType === 'instance_type' &&
      runner.active &&
      runner.connectivity === 'online' &&
      ran.has(runner.id) &&
      BUSY_RUNNERS[runner.id] === undefined,
  );
}

function addDemoPipelines(state: SimulatorState, rng: Rng): void {
  const runner = demoRunner(state);
  const project = state.projects.get(ARTIFACTS_DEMO_PROJECT_ID);
  const user = state.users.get(2);
  if (!runner || !project || !user) return;
  for (const plan of demoPipelines()) {
    const sha = rng.hex(40);
    const title = `Demo pipeline ${plan.id} on ${plan.ref}`;
    if (plan.parentId !== undefined) state.pipelineParents.set(plan.id, plan.parentId);
    plan.jobs.forEach((spec, index) => {
      const status = spec.status ?? plan.status;
      const createdAt = minutesBefore(state.now, plan.minutesAgo - index);
      const startedAt = minutesBefore(state.now, plan.minutesAgo - index - 0.5);
      const running = status === 'running';
      const duration = running ? null : 95.5 + index;
      const finishedAt = running ? null : new Date(Date.parse(startedAt) + (duration ?? 0) * 1000).toISOString();
      const id = state.nextId('jobs');
      const job: Job = {
        id,
        runnerId: runner.id,
        projectId: project.id,
        userId: user.id,
        status,
        stage: spec.stage,
        name: spec.name,
        ref: plan.ref,
        tag: plan.tag ?? false,
        coverage: spec.stage === 'test' && status === 'success' ? 87.5 : null,
        createdAt,
        startedAt,
        finishedAt,
        duration,
        queuedDuration: 1.25,
        commit: {
          id: sha,
          shortId: sha.slice(0, 8),
          title,
          message: `${title}\n`,
          createdAt,
          parentIds: [rng.hex(40)],
          authorName: user.name,
          authorEmail: user.email,
          authoredDate: createdAt,
          committerName: user.name,
          committerEmail: user.email,
          committedDate: createdAt,
        },
        pipeline: { id: plan.id, sha, ref: plan.ref, status: plan.status },
      };
      state.jobs.set(id, job);
      if (spec.files) {
        const expireAt = spec.expired ? minutesBefore(state.now, 24 * 60) : daysAfter(finishedAt ?? createdAt, DEFAULT_EXPIRY_DAYS);
        state.jobArtifacts.set(id, { jobId: id, files: spec.files, expireAt, locked: false });
      }
      if (running && spec.name === 'deploy-staging') state.jobTokens.set(DEMO_JOB_TOKEN, id);
    });
  }
}

/**
 * Artifacts for the successful build and test jobs of the demo history (some never expire, many
 * have expired by the demo's "now", as after a real 30-day expiry), job tokens for every running
 * job, and the demo pipelines of gitlab-org/gitlab.
 */
export function seedArtifacts(state: SimulatorState): void {
  const rng = new Rng(0x41_52_54_46);
  for (const job of state.jobs.values()) {
    if (job.status === 'running') state.jobTokens.set(`glcbt-${rng.alnum(24)}`, job.id);
    if (job.status !== 'success' || (job.stage !== 'build' && job.stage !== 'test')) continue;
    const artifacts: JobArtifacts = {
      jobId: job.id,
      files: historyFiles(job),
      expireAt: job.id % 4 === 0 ? null : daysAfter(job.finishedAt ?? job.createdAt, DEFAULT_EXPIRY_DAYS),
      locked: false,
    };
    state.jobArtifacts.set(job.id, artifacts);
  }
  addDemoPipelines(state, rng);
}
