import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { buildSchemaFromFiles } from '../../src/schema/sdl.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';

const schema = buildSchemaFromFiles();
const { admin, developer } = DEMO_TOKENS;
/** A public project whose history has authors with a public e-mail and one (bob) without. */
const PROJECT = 'gitlab-org/frontend/design-system';

/** The commit list rows of GitLab's frontend: the author as a user when GitLab knows the address. */
const COMMIT_LIST = /* GraphQL */ `
  fragment CommitAuthor on UserCore {
    id
    username
    name
    webUrl
    avatarUrl
  }
  query getCommitList($projectPath: ID!, $first: Int) {
    project(fullPath: $projectPath) {
      id
      repository {
        commits(first: $first) {
          nodes {
            sha
            authorName
            authorEmail
            author {
              ...CommitAuthor
            }
          }
        }
      }
    }
  }
`;

interface RestUser {
  id: number;
  username: string;
  name: string;
  web_url: string;
  avatar_url: string;
  email?: string;
  public_email?: string;
}

interface CommitRow {
  sha: string;
  authorEmail: string;
  author: { id: string; username: string; name: string; webUrl: string; avatarUrl: string } | null;
}

type CommitList = { project: { repository: { commits: { nodes: CommitRow[] } } } };

describe("a commit's author in GitLab's dialect", () => {
  it('the commit list document validates against the schema', () => {
    expect(validate(schema, parse(COMMIT_LIST))).toEqual([]);
  });

  describe('over real HTTP', () => {
    const harness = gatewayOverSimulator({ limits: { maxRestCalls: 250_000 } });
    const userSearches = () => restCalls(harness.simulator).filter((call) => call === 'GET /users');

    /** What REST lets this caller find for an e-mail: the searched user whose e-mail equals it. */
    async function restAuthor(email: string, token: string): Promise<CommitRow['author']> {
      const found = await harness.oracle.get<RestUser[]>(`/users?search=${encodeURIComponent(email)}`, token);
      const user = found.find((candidate) => [candidate.email, candidate.public_email].some((address) => address?.toLowerCase() === email.toLowerCase()));
      return user ? { id: `gid://gitlab/User/${user.id}`, username: user.username, name: user.name, webUrl: user.web_url, avatarUrl: user.avatar_url } : null;
    }

    it.each([
      ['an administrator, who finds users by any e-mail', admin],
      ['a developer, who finds users by their public e-mail only', developer],
    ])('resolves the authors for %s, one user search per distinct address', async (_who, token) => {
      const result = await harness.gateway.query<CommitList>(COMMIT_LIST, { projectPath: PROJECT, first: 40 }, token);
      expect(result.errors).toBeUndefined();
      const nodes = result.data!.project.repository.commits.nodes;
      const emails = [...new Set(nodes.map((node) => node.authorEmail))];
      expect(userSearches()).toHaveLength(emails.length);
      const expected = new Map<string, CommitRow['author']>();
      for (const email of emails) expected.set(email, await restAuthor(email, token));
      for (const node of nodes) expect([node.sha, node.author]).toEqual([node.sha, expected.get(node.authorEmail)]);
      expect(emails).toContain('bob@example.com');
    });

    it('finds bob, who shows no public e-mail, for an administrator only', async () => {
      const authorOf = async (token: string) =>
        (await harness.gateway.query<CommitList>(COMMIT_LIST, { projectPath: PROJECT, first: 40 }, token)).data!.project.repository.commits.nodes.find((node) => node.authorEmail === 'bob@example.com')!.author;
      expect(await authorOf(admin)).toMatchObject({ username: 'bob' });
      expect(await authorOf(developer)).toBeNull();
    });

    it('answers null to anonymous callers without a call, since REST refuses them a user search', async () => {
      const result = await harness.gateway.query<CommitList>(COMMIT_LIST, { projectPath: PROJECT, first: 10 });
      expect(result.errors).toBeUndefined();
      expect(result.data!.project.repository.commits.nodes.every((node) => node.author === null)).toBe(true);
      expect(userSearches()).toEqual([]);
      expect((await harness.oracle.call('GET', '/users?search=developer%40example.com')).status).toBe(403);
    });
  });
});
