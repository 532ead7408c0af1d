// The gateway and the embedded server each keep GitLab 16.2's table of CI statuses (src/ never
// imports simulator/, nor the other way round). Over real HTTP, for every status the embedded
// server's pipelines and jobs hold, the gateway's `detailedStatus` must be what the server's REST
// `detailed_status` says for the same pipeline, so that neither table drifts from the other. The seed's
// pipelines run, pass, fail or are canceled; a pending and a skipped one are made first, the way an
// external CI makes them (REST's commit statuses on commits that have no pipeline yet).
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';

const { admin, maintainer } = DEMO_TOKENS;

interface RestDetailedStatus {
  text: string;
  label: string;
  icon: string;
  group: string;
  tooltip: string;
  details_path: string | null;
}
interface GqlDetailedStatus {
  text: string;
  label: string;
  icon: string;
  group: string;
  tooltip: string;
  detailsPath: string | null;
}
/** A pipeline of each status the embedded server holds, with its project and REST's status. */
interface Held {
  status: string;
  projectId: number;
  fullPath: string;
  pipelineId: number;
  rest: RestDetailedStatus;
}

const PIPELINE_STATUS = `query pipelineDetailedStatus($fullPath: ID!, $status: PipelineStatusEnum) {
  project(fullPath: $fullPath) {
    pipelines(status: $status, first: 1) { nodes { id detailedStatus { text label icon group tooltip detailsPath } } }
  }
}`;

const JOB_STATUS = `query jobDetailedStatus($fullPath: ID!, $statuses: [CiJobStatus!]) {
  project(fullPath: $fullPath) {
    jobs(statuses: $statuses, first: 1) { nodes { id detailedStatus { text label icon group } } }
  }
}`;

/** The core fields both sides must agree on, in the gateway's names. */
const core = (status: RestDetailedStatus) => ({ text: status.text, label: status.label, icon: status.icon, group: status.group });

describe('DetailedStatus: the gateway against the embedded server\'s REST detailed_status', () => {
  const harness = gatewayOverSimulator();

  beforeAll(async () => {
    const commits = await harness.oracle.get<Array<{ id: string }>>('/projects/1/repository/commits?per_page=30', maintainer);
    const bare: string[] = [];
    for (const commit of commits) {
      const pipelines = await harness.oracle.get<unknown[]>(`/projects/1/pipelines?sha=${commit.id}`, maintainer);
      if (pipelines.length === 0) bare.push(commit.id);
    }
    for (const [index, state] of ['pending', 'skipped'].entries()) {
      const made = await harness.oracle.call('POST', `/projects/1/statuses/${bare[index]!}?state=${state}&name=parity`, maintainer);
      expect(made.status).toBe(201);
    }
  });

  /** The newest pipeline of each status over all projects, with its REST detail's detailed_status. */
  async function heldStatuses(): Promise<Map<string, Held>> {
    const projects = await harness.oracle.all<{ id: number; path_with_namespace: string }>('/projects', admin);
    const held = new Map<string, Held>();
    for (const project of projects) {
      const pipelines = await harness.oracle.all<{ id: number; status: string }>(`/projects/${project.id}/pipelines`, admin);
      for (const pipeline of pipelines) {
        if (held.has(pipeline.status)) continue;
        const detail = await harness.oracle.get<{ detailed_status: RestDetailedStatus }>(`/projects/${project.id}/pipelines/${pipeline.id}`, admin);
        held.set(pipeline.status, { status: pipeline.status, projectId: project.id, fullPath: project.path_with_namespace, pipelineId: pipeline.id, rest: detail.detailed_status });
      }
    }
    return held;
  }

  it('answers each pipeline status as REST does: text, label, icon, group, tooltip and page', async () => {
    const held = await heldStatuses();
    // The seed's running, passed, failed and canceled pipelines, and the pending and skipped ones made above.
    expect(held.size).toBeGreaterThan(5);
    for (const { status, fullPath, pipelineId, rest } of held.values()) {
      // REST lists a status's newest pipeline first, as the gateway's first node.
      const [newest] = await harness.oracle.get<Array<{ id: number }>>(`/projects/${encodeURIComponent(fullPath)}/pipelines?status=${status}&per_page=1`, admin);
      expect(newest!.id).toBe(pipelineId);
      const result = await harness.gateway.query<{ project: { pipelines: { nodes: Array<{ id: string; detailedStatus: GqlDetailedStatus }> } } }>(
        PIPELINE_STATUS,
        { fullPath, status: status.toUpperCase() },
        admin,
      );
      expect(result.errors).toBeUndefined();
      const [node] = result.data!.project.pipelines.nodes;
      expect({ status, id: node!.id, ...node!.detailedStatus }).toEqual({
        status,
        id: `gid://gitlab/Ci::Pipeline/${pipelineId}`,
        ...core(rest),
        tooltip: rest.tooltip,
        detailsPath: rest.details_path,
      });
    }
  });

  it('answers each job status with the core status REST shows for a pipeline in that status', async () => {
    const held = await heldStatuses();
    let checked = 0;
    for (const { status } of held.values()) {
      // A job's and a pipeline's detailed status share the core class; a manual or delayed job's
      // label is the job factory's own, and a failure allowed to fail is a warning.
      if (status === 'manual' || status === 'scheduled') continue;
      for (const project of [...held.values()].map((pipeline) => pipeline.projectId)) {
        const [job] = await harness.oracle.get<Array<{ id: number; allow_failure?: boolean }>>(`/projects/${project}/jobs?scope[]=${status}&per_page=1`, admin);
        if (!job || job.allow_failure === true) continue;
        const { fullPath } = [...held.values()].find((pipeline) => pipeline.projectId === project)!;
        const result = await harness.gateway.query<{ project: { jobs: { nodes: Array<{ id: string; detailedStatus: Omit<GqlDetailedStatus, 'tooltip' | 'detailsPath'> }> } } }>(
          JOB_STATUS,
          { fullPath, statuses: [status.toUpperCase()] },
          admin,
        );
        expect(result.errors).toBeUndefined();
        const [node] = result.data!.project.jobs.nodes;
        expect({ status, id: node!.id, ...node!.detailedStatus }).toEqual({ status, id: `gid://gitlab/Ci::Build/${job.id}`, ...core(held.get(status)!.rest) });
        checked++;
        break;
      }
    }
    expect(checked).toBeGreaterThan(1);
  });
});
