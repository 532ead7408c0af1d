import { describe, expect, it } from 'vitest';
import { restPath } from '../../src/datasources/path.js';
import { endpointOf } from '../../src/observability/endpoint.js';

// Paths built as the data sources build them: restPath registers each call site's template.
const issue = (project: string | number, iid: number) => restPath`/projects/${project}/issues/${iid}`;
const wikiPage = (project: string, slug: string) => restPath`/projects/${project}/wikis/${slug}`;
const wikiAttachments = (project: string) => restPath`/projects/${project}/wikis/attachments`;
const rawArtifact = (project: string, ref: string) => restPath`/projects/${project}/jobs/artifacts/${ref}/raw`;

describe('endpointOf', () => {
  it('names a path by the restPath template that built it, whatever the values', () => {
    expect(endpointOf(issue('gitlab-org/gitlab', 7))).toBe('/projects/:id/issues/:id');
    expect(endpointOf(issue(42, 1))).toBe('/projects/:id/issues/:id');
    expect(endpointOf(issue('a.b/../c', 3))).toBe('/projects/:id/issues/:id');
  });

  it('prefers the template with more literal text when two match', () => {
    expect(endpointOf(wikiAttachments('group/project'))).toBe('/projects/:id/wikis/attachments');
    expect(endpointOf(wikiPage('group/project', 'home'))).toBe('/projects/:id/wikis/:id');
  });

  it('names constant paths by themselves, and paths with segments appended to a template by that template', () => {
    expect(endpointOf('/runners/all')).toBe('/runners/all');
    expect(endpointOf(`${rawArtifact('group/project', 'main')}/docs/README%2Emd`)).toBe('/projects/:id/jobs/artifacts/:id/raw/*');
  });

  it('names a constant path built by restPath by itself, even where a template with a value has as many segments', () => {
    const runner = (id: number) => restPath`/runners/${id}`;
    const verify = () => restPath`/runners/verify`;
    expect(endpointOf(runner(7))).toBe('/runners/:id');
    expect(endpointOf(verify())).toBe('/runners/verify');
    expect(endpointOf(runner(8))).toBe('/runners/:id');
  });

  it('never returns a raw path it cannot name', () => {
    expect(endpointOf('/unknown/12345/thing')).toBe('other');
  });
});
