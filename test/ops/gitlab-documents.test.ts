// scripts/gitlab-documents.ts over a checkout laid out as GitLab's is, holding our own documents in
// the style of GitLab's (the script's import resolution, Apollo's stripping and the tallies).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
let checkout: string;

const files: Record<string, string> = {
  'app/assets/javascripts/graphql_shared/fragments/page_info.fragment.graphql': 'fragment PageInfo on PageInfo { hasNextPage endCursor }',
  // Valid once its @client field and @connection directive are stripped, through a `~/` import.
  'app/assets/javascripts/ci/runner/graphql/list/runners.query.graphql': `#import "~/graphql_shared/fragments/page_info.fragment.graphql"
query runnerList($first: Int, $paused: Boolean) {
  runners(first: $first, paused: $paused) @connection(key: "runners") {
    nodes { id status checked @client }
    pageInfo { ...PageInfo }
  }
}`,
  // A relative import of a fragment that asks a field the schema lacks.
  'app/assets/javascripts/ci/runner/graphql/show/runner_extra.fragment.graphql': 'fragment RunnerExtra on CiRunner { id fieldThatIsNotThere }',
  'app/assets/javascripts/ci/runner/graphql/show/runner.query.graphql': `#import "./runner_extra.fragment.graphql"
query runner($id: CiRunnerID!) { runner(id: $id) { ...RunnerExtra } }`,
  // Entirely local state: not counted.
  'app/assets/javascripts/boards/graphql/client/selected.query.graphql': 'query selectedBoardItems { selectedBoardItems @client }',
  // Imports a file this checkout lacks: not counted.
  'app/assets/javascripts/boards/graphql/board.query.graphql': `#import "ee_else_ce/boards/graphql/missing.fragment.graphql"
query board { currentUser { id } }`,
};

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), 'gitlab-checkout-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(checkout, path)), { recursive: true });
    writeFileSync(join(checkout, path), text);
  }
});

afterAll(() => rmSync(checkout, { recursive: true, force: true }));

describe('npm run gitlab-documents', () => {
  it('counts the documents that validate as Apollo sends them, by domain, with the causes of the others', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/gitlab-documents.ts', checkout, '--each'], { cwd: process.cwd() });
    expect(stdout).toContain('1 of 2 documents validate unmodified (50%); 1 client-only and 1 with a missing import not counted.');
    expect(stdout).toMatch(/runners\s+1 of\s+2\s+50%/);
    expect(stdout).toMatch(/1 {2}Cannot query field "fieldThatIsNotThere" on type "CiRunner"/);
    expect(stdout).toContain('app/assets/javascripts/ci/runner/graphql/show/runner.query.graphql');
  });

  it('refuses a folder that is not a GitLab checkout', async () => {
    await expect(run(process.execPath, ['--import', 'tsx', 'scripts/gitlab-documents.ts', tmpdir()])).rejects.toMatchObject({ code: 2 });
  });
});
