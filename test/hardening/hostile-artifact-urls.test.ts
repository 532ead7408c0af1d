// Hostile artifact download URLs (issue 15, an adversarial suite), beyond the file-path tricks of
// test/e2e/artifacts.test.ts: traversal and NULs in the project and ref segments, overlong
// segments, odd job ids, duplicated and oversized job tokens, request targets that are not paths.
// Each stays one encoded segment upstream, or is refused with a 4xx and a code before any call.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { DEMO_JOB_TOKEN, DEMO_TOKENS } from '../../simulator/index.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { attackerCalls, codesOf, expectNothingLeaked, withBystander, type GraphQLBody } from './hostile-support.js';

const { developer } = DEMO_TOKENS;

describe('hostile artifact download URLs', () => {
  const harness = gatewayOverSimulator();

  /** A request with its target exactly as written (fetch would resolve `..` first). */
  function rawRequest(
    target: string,
    headers: Record<string, string> = { 'private-token': developer },
    method = 'GET',
  ): Promise<{ status: number; body: string; json: GraphQLBody | undefined }> {
    const url = new URL(harness.gateway.url);
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: target, headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          let json: GraphQLBody | undefined;
          try {
            json = JSON.parse(body) as GraphQLBody;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body, json });
        });
      });
      req.on('error', reject);
      req.end();
    });
  }

  it.each([
    ['`..` as the project', '/artifacts/projects/../jobs/1/artifacts', 'GET /projects/%2E%2E/jobs/1/artifacts'],
    ['`%2e%2e` as the project', '/artifacts/projects/%2e%2e/jobs/1/artifacts', 'GET /projects/%2E%2E/jobs/1/artifacts'],
    [
      'encoded slashes climbing out of the project',
      '/artifacts/projects/%2e%2e%2F%2e%2e%2Fuser/jobs/1/artifacts',
      'GET /projects/%2E%2E%2F%2E%2E%2Fuser/jobs/1/artifacts',
    ],
    ['a NUL in the project', '/artifacts/projects/1%00/jobs/1/artifacts', 'GET /projects/1%00/jobs/1/artifacts'],
    ['`..` as the ref', '/artifacts/projects/1/jobs/artifacts/../download?job=compile', 'GET /projects/1/jobs/artifacts/%2E%2E/download'],
    [
      'encoded slashes climbing out of the ref',
      '/artifacts/projects/1/jobs/artifacts/..%2F..%2F..%2Fuser/download?job=compile',
      'GET /projects/1/jobs/artifacts/%2E%2E%2F%2E%2E%2F%2E%2E%2Fuser/download',
    ],
    [
      'a NUL in the ref',
      '/artifacts/projects/1/jobs/artifacts/main%00/download?job=compile',
      'GET /projects/1/jobs/artifacts/main%00/download',
    ],
    [
      'backslashes in the file path',
      '/artifacts/projects/1/jobs/20001/artifacts/docs\\..\\..\\user',
      'GET /projects/1/jobs/20001/artifacts/docs%5C%2E%2E%5C%2E%2E%5Cuser',
    ],
    ['leading zeros in the job id', '/artifacts/projects/1/jobs/000001/artifacts', 'GET /projects/1/jobs/1/artifacts'],
  ])('sends %s upstream as one encoded segment, never climbing out of it', async (_case, target, call) => {
    const answer = await withBystander(harness, () => rawRequest(target));
    expect(answer.status).toBe(404);
    expect(codesOf(answer.json)).toEqual(['NOT_FOUND']);
    expect(attackerCalls(harness)).toEqual([call]);
    expectNothingLeaked(harness, answer.body, [developer]);
  });

  it('sends a 4,000-character ref and job name upstream as they are, answered NOT_FOUND without echoing the credential', async () => {
    const answer = await withBystander(harness, () =>
      rawRequest(`/artifacts/projects/1/jobs/artifacts/${'r'.repeat(4_000)}/download?job=${'j'.repeat(2_000)}`),
    );
    expect(answer.status).toBe(404);
    expect(codesOf(answer.json)).toEqual(['NOT_FOUND']);
    expect(attackerCalls(harness)).toHaveLength(1);
    expectNothingLeaked(harness, answer.body, [developer]);
  });

  it('refuses a ref and job name that would make a request GitLab answers 414, before any REST call', async () => {
    const answer = await withBystander(harness, () =>
      rawRequest(`/artifacts/projects/1/jobs/artifacts/${'r'.repeat(8_000)}/download?job=${'j'.repeat(4_000)}`),
    );
    expect(answer.status).toBe(400);
    expect(codesOf(answer.json)).toEqual(['BAD_USER_INPUT']);
    expect(attackerCalls(harness)).toHaveLength(0);
    expectNothingLeaked(harness, answer.body, [developer]);
  });

  it.each([
    ['a job id of 16 digits', '/artifacts/projects/1/jobs/1234567890123456/artifacts', 404, 'NOT_FOUND'],
    ['a negative job id', '/artifacts/projects/1/jobs/-1/artifacts', 404, 'NOT_FOUND'],
    ['a job id with an exponent', '/artifacts/projects/1/jobs/1e3/artifacts', 404, 'NOT_FOUND'],
    ['an empty project', '/artifacts/projects//jobs/1/artifacts', 404, 'NOT_FOUND'],
    ['a doubled slash after the prefix', '/artifacts//projects/1/jobs/1/artifacts', 404, 'NOT_FOUND'],
    ['nothing after the prefix', '/artifacts/', 404, 'NOT_FOUND'],
    ['a download by ref with an empty job name', '/artifacts/projects/1/jobs/artifacts/main/download?job=', 400, 'BAD_USER_INPUT'],
    ['a download by ref with extra segments', '/artifacts/projects/1/jobs/artifacts/main/download/more?job=compile', 404, 'NOT_FOUND'],
    ['a malformed %-escape in the project', '/artifacts/projects/%zz/jobs/1/artifacts', 400, 'BAD_USER_INPUT'],
    ['a truncated UTF-8 escape in the ref', '/artifacts/projects/1/jobs/artifacts/%E0%A4/download?job=compile', 400, 'BAD_USER_INPUT'],
  ])('refuses %s with a 4xx and a code, before any REST call', async (_case, target, status, code) => {
    const answer = await withBystander(harness, () => rawRequest(target));
    expect(answer.status).toBe(status);
    expect(codesOf(answer.json)).toEqual([code]);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it.each(['POST', 'PUT', 'DELETE', 'OPTIONS'])('refuses %s on a download path with 405 and no REST call', async (method) => {
    const answer = await rawRequest('/artifacts/projects/1/jobs/1/artifacts', { 'private-token': developer }, method);
    expect(answer.status).toBe(405);
    expect(codesOf(answer.json)).toEqual(['BAD_USER_INPUT']);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('does not read an absolute-form request target as a download of another host', async () => {
    const answer = await rawRequest('http://evil.example/artifacts/projects/1/jobs/1/artifacts');
    expect(answer.status).toBe(404);
    expect(attackerCalls(harness)).toEqual([]);
  });

  it('takes the first of two job tokens, and the job token forwarded is never echoed, however long', async () => {
    const twice = await rawRequest(
      `/artifacts/projects/1/jobs/artifacts/main/download?job=compile&job_token=glcbt-wrong&job_token=${DEMO_JOB_TOKEN}`,
      {},
    );
    expect(twice.status).toBe(401);
    expect(codesOf(twice.json)).toEqual(['UNAUTHENTICATED']);
    const longToken = `glcbt-${'t'.repeat(6_000)}`;
    const long = await withBystander(harness, () =>
      rawRequest(`/artifacts/projects/1/jobs/artifacts/main/download?job=compile&job_token=${longToken}`, {}),
    );
    expect(long.status).toBe(401);
    expect(codesOf(long.json)).toEqual(['UNAUTHENTICATED']);
    expect(long.body).not.toContain('t'.repeat(100));
    // The job token went as a header, never into the upstream's URL.
    expect(harness.simulator.requests.every((recorded) => !('job_token' in recorded.query))).toBe(true);
  });

  it("uses the caller's header credential over a job_token in the URL", async () => {
    const answer = await rawRequest(`/artifacts/projects/1/jobs/artifacts/main/download?job=compile&job_token=${DEMO_JOB_TOKEN}`, {
      'private-token': 'glpat-not-a-token',
    });
    expect(answer.status).toBe(401);
    expect(answer.body).not.toContain('glpat-not-a-token');
    expect(answer.body).not.toContain(DEMO_JOB_TOKEN);
  });
});
