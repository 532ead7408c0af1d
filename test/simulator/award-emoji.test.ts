// Emoji reactions on issues and their notes, as GitLab's REST "Emoji reactions" answers them: the
// list, one award, awarding (a repeat is a 404, as GitLab's validation error), and taking back
// (only the award's own user or an administrator: 401 otherwise).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKENS, startSimulator, type Simulator } from '../../simulator/index.js';
import { call, list, record } from './helpers.js';

let sim: Simulator;
const { admin, developer, guest } = DEMO_TOKENS;

beforeAll(async () => {
  sim = await startSimulator();
});

afterAll(async () => {
  await sim.close();
});

/** A public issue of gitlab-org/gitaly with a note, and the REST paths of its awards. */
function anIssueWithNote() {
  const issue = [...sim.state.issues.values()].find((candidate) => candidate.projectId === 3 && !candidate.confidential && [...sim.state.notes.values()].some((note) => note.issueId === candidate.id && !note.confidential))!;
  const note = [...sim.state.notes.values()].find((candidate) => candidate.issueId === issue.id && !candidate.confidential)!;
  const base = `/projects/3/issues/${issue.iid}`;
  return { issue, note, issueAwards: `${base}/award_emoji`, noteAwards: `${base}/notes/${note.id}/award_emoji` };
}

describe('emoji reactions on an issue and its notes', () => {
  it('lists an issue\'s awards with their users and awardable', async () => {
    const { issue, issueAwards } = anIssueWithNote();
    const result = await call(sim, issueAwards, { token: guest });
    expect(result.status).toBe(200);
    expect(result.headers.get('x-total')).toBe(String(issue.awards.length));
    expect(list(result).map((award) => [award['id'], award['name'], (award['user'] as { id: number }).id, award['awardable_type'], award['awardable_id']])).toEqual(
      issue.awards.map((award) => [award.id, award.name, award.userId, 'Issue', issue.id]),
    );
  });

  it.each(['issue', 'note'] as const)('awards on an %s, refuses a repeat, and lets only its user take it back', async (kind) => {
    const { note, issueAwards, noteAwards } = anIssueWithNote();
    const path = kind === 'issue' ? issueAwards : noteAwards;
    const name = 'rocket';

    const awarded = await call(sim, path, { method: 'POST', token: developer, json: { name } });
    expect(awarded.status).toBe(201);
    const award = record(awarded);
    expect(award).toMatchObject({ name, user: { username: 'developer' }, awardable_type: kind === 'issue' ? 'Issue' : 'Note' });
    if (kind === 'note') expect(award['awardable_id']).toBe(note.id);

    const again = await call(sim, path, { method: 'POST', token: developer, json: { name } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: '404 Award Emoji Name has already been taken Not Found' });
    const invalid = await call(sim, path, { method: 'POST', token: developer, json: { name: 'Not An Emoji' } });
    expect(invalid.status).toBe(404);

    expect((await call(sim, `${path}/${String(award['id'])}`, { token: guest })).body).toMatchObject({ id: award['id'], name });
    expect((await call(sim, path, { method: 'POST', json: { name: 'tada' } })).status).toBe(401);
    expect((await call(sim, `${path}/${String(award['id'])}`, { method: 'DELETE', token: guest })).status).toBe(401);
    expect((await call(sim, `${path}/${String(award['id'])}`, { method: 'DELETE', token: developer })).status).toBe(204);
    expect((await call(sim, `${path}/${String(award['id'])}`, { token: developer })).status).toBe(404);
    expect(list(await call(sim, path, { token: admin })).map((item) => item['id'])).not.toContain(award['id']);
  });

  it('answers 404 for the awards of a note the issue does not have', async () => {
    const { issue } = anIssueWithNote();
    expect((await call(sim, `/projects/3/issues/${issue.iid}/notes/999999/award_emoji`, { token: admin })).status).toBe(404);
  });
});
