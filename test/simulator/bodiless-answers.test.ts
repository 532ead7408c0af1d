// 204 and 304 answers as GitLab (Rack) sends them: no body and no Content-Type. python-gitlab
// parses any answer typed application/json, so `gl.todos.mark_all_as_done()` (204) failed with
// GitlabParsingError on the empty body while the embedded server typed it JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, USER_IDS, type Simulator } from '../../simulator/index.js';
import { call, type CallResult } from './helpers.js';

let sim: Simulator;
const { developer, guest } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

/** An answer without a body and without a type, the headers every answer has kept. */
function expectBodiless(result: CallResult, status: 204 | 304): void {
  expect(result.status).toBe(status);
  expect(result.text).toBe('');
  expect(result.headers.get('content-type')).toBeNull();
  expect(result.headers.get('x-request-id')).not.toBeNull();
  expect(result.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('answers without a body', () => {
  it('POST /todos/mark_as_done answers 204 with no Content-Type, and the to-dos are done', async () => {
    const pending = () => [...sim.state.todos.values()].filter((todo) => todo.userId === USER_IDS.developer && todo.state === 'pending');
    expect(pending().length).toBeGreaterThan(0);
    expectBodiless(await call(sim, '/todos/mark_as_done', { method: 'POST', token: developer }), 204);
    expect(pending()).toEqual([]);
  });

  it('a DELETE answers 204 with no Content-Type, while its 404 stays typed JSON', async () => {
    const created = await call(sim, '/projects/1/boards', { method: 'POST', token: developer, form: 'name=Bodiless' });
    expect(created.headers.get('content-type')).toBe('application/json');
    const path = `/projects/1/boards/${String((created.body as { id: number }).id)}`;
    expectBodiless(await call(sim, path, { method: 'DELETE', token: developer }), 204);
    const gone = await call(sim, path, { method: 'DELETE', token: developer });
    expect([gone.status, gone.headers.get('content-type')]).toEqual([404, 'application/json']);
  });

  it('an action that changes nothing answers 304 with no Content-Type', async () => {
    const issue = [...sim.state.issues.values()].find((candidate) => candidate.projectId === 1 && !candidate.confidential && !candidate.subscriberIds.includes(USER_IDS.guest))!;
    const subscribe = () => call(sim, `/projects/1/issues/${issue.iid}/subscribe`, { method: 'POST', token: guest });
    const first = await subscribe();
    expect([first.status, first.headers.get('content-type')]).toEqual([201, 'application/json']);
    expectBodiless(await subscribe(), 304);
  });

  it('the control API answers its 204s the same way', async () => {
    const answer = await fetch(`${sim.origin}/__simulator/faults`, { method: 'DELETE' });
    const result: CallResult = { status: answer.status, headers: answer.headers, text: await answer.text(), body: undefined };
    expectBodiless(result, 204);
  });
});
