// The deterministic demo world: same data on every start (seeded PRNG, fixed clock).
import { Rng } from '../rng.js';
import { SimulatorState } from '../state.js';
import { seedBoards } from './boards.js';
import { seedCredentialsInventory } from './credentials-inventory.js';
import { seedGroups } from './groups.js';
import { seedIssues } from './issues.js';
import { seedInvitations } from './invitations.js';
import { seedArtifacts } from './artifacts.js';
import { seedCommitActivity } from './commits.js';
import { seedRepositories } from './repositories.js';
import { seedKeys } from './keys.js';
import { seedSnippets } from './snippets.js';
import { seedWikis } from './wikis.js';
import { seedJobs } from './jobs.js';
import { seedProjects } from './projects.js';
import { INSTANCE_REGISTRATION_TOKEN, seedRunners } from './runners.js';
import { DEMO_USER_TOKENS, seedUsers } from './users.js';

export { BUSY_RUNNERS } from './jobs.js';
export { ARTIFACTS_DEMO_PROJECT_ID, DEMO_JOB_TOKEN } from './artifacts.js';
export { INSTANCE_REGISTRATION_TOKEN, RUNNER_IDS } from './runners.js';
export { DEMO_USER_TOKENS, SPECIAL_TOKENS, USER_IDS } from './users.js';

/** Tokens a client needs to use the demo data. Group and project registration tokens are in the state. */
export const DEMO_TOKENS = {
  ...DEMO_USER_TOKENS,
  /** Instance runner registration token for POST /runners. */
  runnerRegistration: INSTANCE_REGISTRATION_TOKEN,
} as const;

export function createDemoState(seed = 20250601): SimulatorState {
  const state = new SimulatorState();
  const rng = new Rng(seed);
  seedUsers(state);
  seedGroups(state);
  seedProjects(state, rng);
  seedRunners(state, rng);
  seedJobs(state, rng);
  seedInvitations(state);
  seedIssues(state, rng);
  seedBoards(state, rng);
  seedWikis(state);
  seedSnippets(state);
  seedKeys(state);
  seedArtifacts(state);
  // After the merge requests: their branches and merge commits become real commits.
  seedRepositories(state, rng);
  seedCommitActivity(state, rng);
  seedCredentialsInventory(state, rng);
  return state;
}
