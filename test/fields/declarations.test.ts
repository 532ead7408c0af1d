import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ID_ONLY } from '../../src/cost/shapes.js';
import { restRoute } from '../../src/datasources/rest-route.js';
import { endpointOf } from '../../src/observability/endpoint.js';
import { declared, declarationOf } from '../../src/fields/declaration.js';
import { recordField, restListField } from '../../src/fields/patterns.js';
import { resolverModules } from '../../src/__generated__/resolver-modules.js';
import { declaredFields, fieldDomains, restFieldsPage, routesByDomain } from '../../src/fields/rest-fields-page.js';
import { resolvers } from '../../src/resolvers/index.js';
import { buildSchemaFromFiles } from '../../src/schema/sdl.js';
import { createRouter } from '../../simulator/routes/index.js';
import { REST_FIELDS_PAGE } from '../../scripts/rest-fields.js';

const schema = buildSchemaFromFiles();
const resolverMap = resolvers as Readonly<Record<string, unknown>>;

describe('field declarations', () => {
  it('name only REST endpoints that GitLab has: each is one the embedded v4 server serves', () => {
    const served = new Set(createRouter().names());
    const unknown = declaredFields(schema, resolverMap).flatMap(({ type, field, declaration }) =>
      declaration.rest.filter((route) => !served.has(route.name)).map((route) => `${type}.${field}: ${route.name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('are listed on docs/rest-fields.md as `npm run codegen` last wrote it', () => {
    expect(readFileSync(REST_FIELDS_PAGE, 'utf8')).toBe(restFieldsPage(schema, resolverMap, resolverModules));
  });

  it('list each endpoint with the fields that call it, written with their arguments, under the domain of their module', () => {
    const byDomain = routesByDomain(schema, resolverMap, resolverModules);
    // restListField('GET /projects/:id/deploy_keys') in keys/Project.ts; a connection's window arguments left out.
    expect(byDomain.get('keys')?.get('GET /projects/:id/deploy_keys')).toEqual(['Project.deployKeys']);
    expect(byDomain.get('runners')?.get('GET /runners/:id/managers')).toEqual(['CiRunner.managers']);
    expect(byDomain.get('runners')?.get('PUT /runners/:id')).toEqual(expect.arrayContaining(['Mutation.runnerUpdate(input)', 'Mutation.runnerBulkPause(input)']));
    const pipelines = byDomain.get('runners')?.get('GET /projects/:id/pipelines') ?? [];
    expect(pipelines).toContain('Project.pipelines(sha, ref, status, scope, source, username, updatedAfter, updatedBefore)');
    // Every declared route of every field is on the page once per domain, and only there.
    const domains = fieldDomains(resolverModules);
    for (const { type, field, declaration } of declaredFields(schema, resolverMap)) {
      for (const route of declaration.rest) {
        const fields = byDomain.get(domains.get(`${type}.${field}`)!)?.get(route.name) ?? [];
        expect(fields.filter((name) => name === `${type}.${field}` || name.startsWith(`${type}.${field}(`)), `${type}.${field}: ${route.name}`).toHaveLength(1);
      }
    }
  });

  it('put the endpoints, by domain, before the types on the page, each domain under its own anchor', () => {
    const page = restFieldsPage(schema, resolverMap, resolverModules);
    expect(page.indexOf('\n## By REST endpoint\n')).toBeLessThan(page.indexOf('\n## By GraphQL type\n'));
    const keys = page.slice(page.indexOf('\n### keys endpoints\n'));
    expect(keys).toMatch(/^\| `GET \/projects\/:id\/deploy_keys` \| `Project\.deployKeys` \|$/m);
    expect(page).toContain('[keys](#keys-endpoints)');
    expect(page).toMatch(/^\| `deployKeys` \| `GET \/projects\/:id\/deploy_keys` \| the window's REST pages \|$/m);
  });

  it('derive a REST list field whole: its call, its cost and its line on the page', () => {
    const deployKeys = restListField('GET /projects/:id/deploy_keys');
    const declaration = declarationOf(deployKeys)!;
    expect(declaration.rest.map((route) => route.name)).toEqual(['GET /projects/:id/deploy_keys']);
    expect(declaration.cost).toEqual({ calls: 'window', items: 'window' });
  });

  it('refuse what they cannot derive, when the module loads', () => {
    expect(() => restRoute('GET projects/:id')).toThrow(/METHOD \/path/);
    expect(() => restRoute('FETCH /projects')).toThrow(/METHOD \/path/);
    expect(() => restListField('GET /projects/:id/jobs/:job_id/artifacts')).toThrow(/under its parent's :id/);
    expect(() => restListField('POST /projects/:id/deploy_keys')).toThrow(/under its parent's :id/);
    const resolve = () => null;
    declared({ calls: 1 }, resolve);
    expect(() => declared({ calls: 2 }, resolve)).toThrow(/two declarations/);
  });

  it('build paths as the data sources do: each value one encoded segment', () => {
    const route = restRoute('GET /projects/:id/issues/:issue_iid/notes');
    expect(route.params).toEqual(['id', 'issue_iid']);
    expect(route.path({ id: 'gitlab-org/gitlab', issue_iid: 7 })).toBe('/projects/gitlab-org%2Fgitlab/issues/7/notes');
    expect(route.path({ id: '..', issue_iid: 1 })).toBe('/projects/%2E%2E/issues/1/notes');
    expect(() => route.path({ id: 1 })).toThrow(/needs :issue_iid/);
  });

  it('name the endpoint in EXPLAIN and the metrics by the declared template', () => {
    const route = restRoute('GET /projects/:id/merge_requests/:merge_request_iid/closes_issues');
    expect(endpointOf(route.path({ id: 'a/b', merge_request_iid: 3 }))).toBe('/projects/:id/merge_requests/:merge_request_iid/closes_issues');
  });

  it('let a record field carry its cost without a resolver of its own', () => {
    const author = recordField({ returns: ID_ONLY });
    expect(declarationOf(author)).toMatchObject({ readsRecord: true, rest: [] });
  });
});
