// A lone UTF-16 surrogate in an argument (issue 15, item 5). `"\ud800"` is valid JSON, but no UTF-8
// text holds it: encodeURIComponent threw (INTERNAL_SERVER_ERROR and a stack trace in the log), and
// URLSearchParams and FormData would silently send U+FFFD, another value than the caller's. Path
// segments, query strings and JSON bodies all refuse it as BAD_USER_INPUT, before any REST call.
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { logCollector } from '../ops/support.js';

const PROJECT = 'project(fullPath: "gitlab-org/gitlab")';
const PROJECT_LOOKUP = 'GET /projects/gitlab-org%2Fgitlab';

/** Each operation takes the value as `$v`; `lookups` are the calls made before the value is used. */
const ARGUMENTS: Array<{ name: string; operation: string; lookups: string[] }> = [
  { name: 'a project full path (path segment)', operation: 'query($v: ID!) { project(fullPath: $v) { id } }', lookups: [] },
  {
    name: 'a wiki slug (path segment)',
    operation: `query($v: String!) { ${PROJECT} { wikiPage(slug: $v) { title } } }`,
    lookups: [PROJECT_LOOKUP],
  },
  {
    name: 'a commit ref (path segment)',
    operation: `query($v: String!) { ${PROJECT} { repository { commit(ref: $v) { id } } } }`,
    lookups: [PROJECT_LOOKUP],
  },
  {
    name: 'a submodule path (path segment of a write)',
    operation: `mutation($v: String!) { submoduleUpdate(input: { projectPath: "gitlab-org/gitlab", submodule: $v, branch: "main", commitSha: "${'a'.repeat(40)}" }) { errors } }`,
    lookups: [],
  },
  { name: 'an issue search (query string)', operation: 'query($v: String!) { issues(search: $v) { nodes { id } } }', lookups: [] },
  {
    name: 'a runner description (JSON body)',
    operation: 'mutation($v: String!) { runnerUpdate(input: { id: "gid://gitlab/Ci::Runner/1", description: $v }) { errors } }',
    lookups: [],
  },
];

describe('a lone UTF-16 surrogate in an argument', () => {
  const logs = logCollector('error');
  const harness = gatewayOverSimulator({ logger: logs.logger });

  it.each(ARGUMENTS)('is BAD_USER_INPUT in $name, before any REST call that would carry it', async ({ operation, lookups }) => {
    logs.clear();
    for (const value of ['\ud800', 'docs/\udfff', 'a\ud83d']) {
      // JSON.stringify writes the lone surrogate as the escape `\ud800`: valid JSON, as a client sends it.
      const result = await harness.gateway.query(operation, { v: value }, DEMO_TOKENS.admin);
      expect(result.errors).toHaveLength(1);
      expect(result.errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT' });
      expect(result.errors?.[0]?.message).toMatch(/lone UTF-16 surrogate/);
    }
    expect(restCalls(harness.simulator).filter((call) => !lookups.includes(call))).toEqual([]);
    // A refusal, not a gateway fault: no "Unexpected error" with a stack trace.
    expect(logs.text()).toBe('');
  });

  it('lets a well-formed surrogate pair (an emoji) through as the one character it is', async () => {
    const result = await harness.gateway.query(
      'query($v: String!) { issues(search: $v) { nodes { id } } }',
      { v: 'deploy \u{1f680}' },
      DEMO_TOKENS.admin,
    );
    expect(result.errors).toBeUndefined();
    expect(harness.simulator.requests.map((request) => request.query['search'])).toEqual(['deploy \u{1f680}']);
  });
});
