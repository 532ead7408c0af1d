// Scenario "wide" (issue scenario 3): a wide list page. 100 issues across the instance with their
// author and assignees. REST's issue records embed the user summaries, so one call is the minimum.
import { DEMO_TOKENS } from '../../simulator/index.js';
import { firstDifference, runNestedQuery } from '../lib/nested-query.js';
import type { DriverTools } from '../lib/rest-baseline.js';
import type { Scenario } from '../lib/scenario.js';

const TOKEN = DEMO_TOKENS.admin;
const FIRST = 100;

export const WIDE_PAGE_QUERY = `query WidePage($first: Int!) {
  issues(scope: ALL, first: $first) {
    count
    nodes {
      id
      iid
      title
      state
      webUrl
      author { id username name avatarUrl webUrl }
      assignees { nodes { id username name avatarUrl webUrl } }
    }
  }
}`;

export const WIDE_PAGE_VARIABLES = { first: FIRST };

export interface WideData {
  issues: { nodes: Array<{ id: string; title: string; author: { username: string }; assignees: { nodes: Array<{ username: string }> } }> };
}

interface WideRow {
  id: number;
  title: string;
  author: string;
  assignees: string[];
}

interface RestIssue {
  id: number;
  title: string;
  author: { username: string };
  assignees: Array<{ username: string }>;
}

const numericId = (gid: string) => Number(gid.slice(gid.lastIndexOf('/') + 1));

/** What a frontend does today: one page of issues; the people are in it. */
export async function widePageOverRest(tools: DriverTools): Promise<WideRow[]> {
  const issues = await tools.rest(TOKEN).get<RestIssue[]>(`/issues?scope=all&per_page=${FIRST}&page=1`);
  return issues.map((issue) => ({ id: issue.id, title: issue.title, author: issue.author.username, assignees: issue.assignees.map((user) => user.username) }));
}

/** One list page; the people are embedded in it. */
export function widePageMinimum(): Set<string> {
  return new Set(['GET /issues']);
}

export const widePage: Scenario = {
  name: 'wide',
  title: `Wide page: issues(scope: ALL, first: ${FIRST}) with author and assignees`,
  baseline: 'a plain REST client (undici, one GET /issues page)',
  run: (context) =>
    runNestedQuery<WideData>(context, {
      name: 'wide',
      token: TOKEN,
      query: WIDE_PAGE_QUERY,
      variables: WIDE_PAGE_VARIABLES,
      restBaseline: { module: import.meta.url, name: 'widePageOverRest', args: null },
      waves: 1,
      // The issue holds this page to the fewest REST calls only; its latency is for information.
      p50Budget: 'none',
      minimumRule: `1 page of GET /issues (first: ${FIRST} fits one); authors and assignees are embedded in issue records.`,
      minimumResources: widePageMinimum,
      difference(data, rest) {
        const mine = data.issues.nodes.map((node) => ({
          id: numericId(node.id),
          title: node.title,
          author: node.author.username,
          assignees: node.assignees.nodes.map((user) => user.username),
        }));
        return firstDifference(mine, rest, 'issues');
      },
    }),
};
