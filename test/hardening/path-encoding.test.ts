// Values that become REST path segments, sent with traversal and encoding tricks: each call the
// gateway makes must be the intended route with the value as one opaque segment (an exact path,
// from the v4 server's request log), or the value is refused before any REST call.
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS, type Job } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

/**
 * Each trick with its encoding written out by hand (not computed by the code under test): every
 * `/`, `.`, `%`, `?`, `#`, `;`, `\`, control character and non-ASCII byte percent-encoded.
 */
const TRICKS: Array<[label: string, value: string, encoded: string]> = [
  ['dot segments', '../../runners/all', '%2E%2E%2F%2E%2E%2Frunners%2Fall'],
  ['two dots alone', '..', '%2E%2E'],
  ['one dot alone', '.', '%2E'],
  ['encoded dot segments', '%2e%2e/%2E%2E%2Fusers', '%252e%252e%2F%252E%252E%252Fusers'],
  ['an encoded slash', 'gitlab-org%2Fgitlab', 'gitlab-org%252Fgitlab'],
  ['double encoding', '%252e%252e%252fuser', '%25252e%25252e%25252fuser'],
  ['a query string', 'x?private_token=glpat-x&sudo=1', 'x%3Fprivate_token%3Dglpat-x%26sudo%3D1'],
  ['a fragment', 'x#/../../user', 'x%23%2F%2E%2E%2F%2E%2E%2Fuser'],
  ['a matrix parameter', 'x;sudo=root', 'x%3Bsudo%3Droot'],
  ['backslashes', '..\\..\\user', '%2E%2E%5C%2E%2E%5Cuser'],
  ['unicode dots and slashes', '\u2024\u2024\u2215\uFF0E\uFF0E\uFF0Fuser', '%E2%80%A4%E2%80%A4%E2%88%95%EF%BC%8E%EF%BC%8E%EF%BC%8Fuser'],
  ['a null byte', 'x\u0000/../user', 'x%00%2F%2E%2E%2Fuser'],
  ['CR LF', 'x\r\nPRIVATE-TOKEN: glpat-other', 'x%0D%0APRIVATE-TOKEN%3A%20glpat-other'],
  ['spaces and a plus', ' x + y ', '%20x%20%2B%20y%20'],
];

const PROJECT = 'project(fullPath: "gitlab-org/gitlab")';
const SHA = 'a'.repeat(40);

interface Route {
  name: string;
  /** The operation, with the value as `$v`. */
  operation: string;
  /** The one call the value may cause, given the value's encoding. */
  call: (encoded: string) => string;
  /** Calls that do not involve the value (the project looked up by its fixed path). */
  lookups?: string[];
}

/** Every argument the gateway puts into a REST path as a segment of its own. */
const ROUTES: Route[] = [
  { name: 'project full path', operation: `query($v: ID!) { project(fullPath: $v) { id } }`, call: (v) => `GET /projects/${v}` },
  { name: 'group full path', operation: `query($v: ID!) { group(fullPath: $v) { id } }`, call: (v) => `GET /groups/${v}` },
  { name: 'group to update', operation: `mutation($v: ID!) { groupUpdate(input: { fullPath: $v, description: "x" }) { errors } }`, call: (v) => `GET /groups/${v}` },
  {
    name: 'project to enable a runner in',
    operation: `mutation($v: ID!) { runnerAssignToProject(input: { runnerId: "gid://gitlab/Ci::Runner/36", projectPath: $v }) { errors } }`,
    call: (v) => `POST /projects/${v}/runners`,
  },
  {
    name: 'commit SHA or ref',
    operation: `query($v: String!) { ${PROJECT} { repository { commit(ref: $v) { id } } } }`,
    call: (v) => `GET /projects/1/repository/commits/${v}`,
    lookups: ['GET /projects/gitlab-org%2Fgitlab'],
  },
  {
    name: 'commit status SHA',
    operation: `mutation($v: String!) { commitStatusCreate(input: { projectPath: "gitlab-org/gitlab", sha: $v, state: SUCCESS }) { errors } }`,
    call: (v) => `POST /projects/gitlab-org%2Fgitlab/statuses/${v}`,
  },
  {
    name: 'wiki slug',
    operation: `query($v: String!) { ${PROJECT} { wikiPage(slug: $v) { title } } }`,
    call: (v) => `GET /projects/1/wikis/${v}`,
    lookups: ['GET /projects/gitlab-org%2Fgitlab'],
  },
  {
    name: 'submodule file path',
    operation: `mutation($v: String!) { submoduleUpdate(input: { projectPath: "gitlab-org/gitlab", submodule: $v, branch: "main", commitSha: "${SHA}" }) { errors } }`,
    call: (v) => `PUT /projects/gitlab-org%2Fgitlab/repository/submodules/${v}`,
  },
  {
    name: 'artifacts ref name',
    operation: `query($v: String!) { ${PROJECT} { refJobArtifacts(refName: $v, jobName: "compile") { textFile(path: "a.txt") { size } } } }`,
    call: (v) => `GET /projects/1/jobs/artifacts/${v}/raw/a%2Etxt`,
    lookups: ['GET /projects/gitlab-org%2Fgitlab'],
  },
];

describe('values that become REST path segments', () => {
  const harness = gatewayOverSimulator();
  const ask = (operation: string, v: string) => harness.gateway.query(operation, { v }, DEMO_TOKENS.admin);
  /** The calls the value caused: all but the fixed look-ups. */
  const callsBesides = (lookups: string[] = []) => restCalls(harness.simulator).filter((call) => !lookups.includes(call));

  /** The one acceptable call, or no call at all and the value refused as bad input. */
  async function expectOneSegmentOrRefused(operation: string, value: string, expected: string, lookups?: string[]) {
    const result = await ask(operation, value);
    const calls = callsBesides(lookups);
    if (calls.length === 0) expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    else expect(calls).toEqual([expected]);
  }

  describe.each(ROUTES)('$name', ({ operation, call, lookups }) => {
    it('sends a value with `/` and `.` as one segment (the route is reached at all)', async () => {
      await ask(operation, 'a/b.c');
      expect(callsBesides(lookups)).toEqual([call('a%2Fb%2Ec')]);
    });

    it.each(TRICKS)('keeps %s inside the one segment, or refuses it', async (_label, value, encoded) => {
      await expectOneSegmentOrRefused(operation, value, call(encoded), lookups);
    });
  });

  describe('invitation e-mail addresses', () => {
    // Only addresses reach REST; what does must be the one segment, `@` and `.` encoded.
    const ADDRESSES: Array<[string, string]> = [
      ['../../users@example.com', '%2E%2E%2F%2E%2E%2Fusers%40example%2Ecom'],
      ['a%2F..%2Fb@example.com', 'a%252F%2E%2E%252Fb%40example%2Ecom'],
      ['a?b#c@example.com', 'a%3Fb%23c%40example%2Ecom'],
      ['a;b\\c@example.com', 'a%3Bb%5Cc%40example%2Ecom'],
      ['a\u2024\u2024b@example.com', 'a%E2%80%A4%E2%80%A4b%40example%2Ecom'],
      ['a+tag@example.com', 'a%2Btag%40example%2Ecom'],
    ];
    const OPERATIONS: Array<[string, string, (encoded: string) => string]> = [
      ['invitationUpdate', `mutation($v: String!) { invitationUpdate(input: { groupPath: "gitlab-org", email: $v, accessLevel: DEVELOPER }) { errors } }`, (v) => `PUT /groups/gitlab-org/invitations/${v}`],
      ['invitationDelete', `mutation($v: String!) { invitationDelete(input: { projectPath: "gitlab-org/gitlab", email: $v }) { errors } }`, (v) => `DELETE /projects/gitlab-org%2Fgitlab/invitations/${v}`],
    ];
    it.each(OPERATIONS.flatMap(([name, operation, route]) => ADDRESSES.map(([address, encoded]) => ({ name, operation, address, expected: route(encoded) }))))(
      '$name with $address: refused, or sent as one segment',
      async ({ operation, address, expected }) => {
        await expectOneSegmentOrRefused(operation, address, expected);
      },
    );

    it('sends a plain address, so the refusals above are the validation and not a broken route', async () => {
      await ask(OPERATIONS[0]![1], 'new.member@example.com');
      expect(restCalls(harness.simulator)).toEqual(['PUT /groups/gitlab-org/invitations/new%2Emember%40example%2Ecom']);
    });
  });

  describe('paths inside an artifacts archive', () => {
    let job: Job;
    const operation = () => `query($v: String!) { ${PROJECT} { jobArtifacts(jobId: "gid://gitlab/Ci::Build/${job.id}") { textFile(path: $v) { size } } } }`;
    const lookups = ['GET /projects/gitlab-org%2Fgitlab'];
    const findJob = () => [...harness.simulator.state.jobs.values()].find((candidate) => candidate.projectId === 1 && candidate.name === 'build-docs')!;

    // `/` separates the archive's folders here (REST's `*artifact_path`); each segment is encoded alone.
    it.each([
      ['backslashes', '..\\..\\keys', '%2E%2E%5C%2E%2E%5Ckeys'],
      ['a query, a fragment and a matrix parameter', 'docs/a?b#c;d', 'docs/a%3Fb%23c%3Bd'],
      ['unicode dots', '\uFF0E\uFF0E/\u2024\u2024/keys', '%EF%BC%8E%EF%BC%8E/%E2%80%A4%E2%80%A4/keys'],
      ['double encoding', 'docs/%252e%252e/keys', 'docs/%25252e%25252e/keys'],
      ['an encoded slash', 'docs%2F..%2Fkeys/x', 'docs%252F%2E%2E%252Fkeys/x'],
      ['CR LF', 'docs/x\r\ny', 'docs/x%0D%0Ay'],
      ['dots inside a name', 'docs/...hidden/..x', 'docs/%2E%2E%2Ehidden/%2E%2Ex'],
    ])('keeps %s inside the archive route', async (_label, value, encoded) => {
      job = findJob();
      await ask(operation(), value);
      expect(restCalls(harness.simulator).filter((call) => !lookups.includes(call))).toEqual([`GET /projects/1/jobs/${job.id}/artifacts/${encoded}`]);
    });

    it.each([['../keys'], ['docs/../../keys'], ['./docs'], ['docs/.']])('refuses %j, a path that climbs, before any REST call', async (value) => {
      job = findJob();
      const result = await ask(operation(), value);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'path' });
      expect(restCalls(harness.simulator).filter((call) => !lookups.includes(call))).toEqual([]);
    });
  });

  describe('SSH key fingerprints', () => {
    const operation = `query($v: String!) { keyByFingerprint(fingerprint: $v) { id } }`;

    it.each(TRICKS)('refuses %s before any REST call', async (_label, value) => {
      const result = await ask(operation, `SHA256:${value}`);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
      expect(restCalls(harness.simulator)).toEqual([]);
    });

    it('sends a real fingerprint, `/` and `+` included, in the query string of GET /keys only', async () => {
      const fingerprint = 'SHA256:nUhzNyftwADy8AH3wFY31tAKs7HufskYTte2aXo/lC+';
      await ask(operation, fingerprint);
      expect(harness.simulator.requests).toEqual([{ method: 'GET', path: '/keys', query: { fingerprint } }]);
    });
  });
});
