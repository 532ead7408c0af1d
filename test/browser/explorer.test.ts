import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureExplorerBuilt } from '../../explorer/build.js';
import { DEMO_TOKENS } from '../../simulator/index.js';
import { EXPLORER_CONTENT_SECURITY_POLICY } from '../../src/transport/explorer.js';
import { gatewayOverSimulator } from '../support/harness.js';
import { restCalls } from '../support/rest-oracle.js';
import { graphqlStatusOf } from '../support/runner-watch.js';
import { until } from '../support/wait.js';

/** Debian's chromium, installed by scripts/ensure-chromium.sh (npm's pretest, .ci/run). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless, and quiet on a closed network: without the background-networking flags Chromium
 * stalls trying to reach Google's services. Playwright gives each launch a fresh user data
 * directory of its own (it refuses `--user-data-dir` here) and deletes it on close.
 */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const QUERY_EDITOR = '.graphiql-query-editor .CodeMirror';
const HEADERS_EDITOR = 'section.graphiql-editor-tool[aria-label="Headers"] .graphiql-editor:not(.hidden) .CodeMirror';
const RESULT_PANE = '.result-window .CodeMirror';
const RUN_BUTTON = '.graphiql-execute-button';

const gid = (id: number) => `gid://gitlab/Ci::Runner/${id}`;

/**
 * The whole text of a CodeMirror editor. CodeMirror draws only the lines in view, so the text is
 * read from the editor instance, not from the DOM. Evaluated as an expression over the DevTools
 * protocol: the page's CSP forbids the in-page eval that Playwright's function predicates need.
 */
function editorText(page: Page, selector: string): Promise<string> {
  return page.evaluate<string>(`document.querySelector(${JSON.stringify(selector)}).CodeMirror.getValue()`);
}

/**
 * Replaces an editor's text as a user does: focus it, select all, type. The text goes in as one
 * input event, as an IME would send it, so bracket auto-closing and autocompletion leave it as is.
 */
async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

/** Runs the operation in the query editor, once GraphiQL has parsed it (it does so after a short debounce). */
async function run(page: Page, operationName: string): Promise<void> {
  await expect
    .poll(() => page.evaluate<string | null>(`document.querySelector(${JSON.stringify(QUERY_EDITOR)}).CodeMirror.operationName ?? null`))
    .toBe(operationName);
  await page.locator(RUN_BUTTON).click();
}

/** The result pane's JSON, or undefined while it holds none. */
async function result(page: Page): Promise<unknown> {
  const text = await editorText(page, RESULT_PANE);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

describe('the offline explorer in headless Chromium', { timeout: 60_000 }, () => {
  const harness = gatewayOverSimulator({ runnerPollIntervalMs: 50, landingPage: false });
  let browser: Browser;
  let page: Page;
  let origin: string;
  /** Every URL the page asked for: HTTP requests and WebSockets. */
  const requested: string[] = [];
  /** The `connection_init` payloads the page sent, one per WebSocket it opened. */
  const connectionInits: unknown[] = [];
  /** Console errors (CSP violations among them) and uncaught page errors. */
  const problems: string[] = [];

  beforeAll(async () => {
    await ensureExplorerBuilt();
    origin = new URL(harness.gateway.url).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('request', (request) => requested.push(request.url()));
    page.on('websocket', (socket) => {
      requested.push(socket.url());
      socket.on('framesent', ({ payload }) => {
        const message = JSON.parse(String(payload)) as { type: string; payload?: unknown };
        if (message.type === 'connection_init') connectionInits.push(message.payload);
      });
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('opens with the hint, an empty PRIVATE-TOKEN header, and the schema fetched from the gateway', async () => {
    const introspection = page.waitForResponse((response) => response.url() === harness.gateway.url && response.request().method() === 'POST');
    const response = await page.goto(`${origin}/explorer`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toBe(EXPLORER_CONTENT_SECURITY_POLICY);
    await page.locator(QUERY_EDITOR).waitFor();
    await page.locator(HEADERS_EDITOR).waitFor();
    expect(JSON.parse(await editorText(page, HEADERS_EDITOR))).toEqual({ 'PRIVATE-TOKEN': '' });
    expect(await editorText(page, QUERY_EDITOR)).toContain('Put your GitLab token in the Headers tab');
    const schema = (await (await introspection).json()) as { data?: { __schema?: { subscriptionType?: { name: string } } } };
    expect(schema.data?.__schema?.subscriptionType?.name).toBe('Subscription');
    // Introspection reads the schema, not GitLab.
    expect(restCalls(harness.simulator)).toEqual([]);

    // GraphiQL's dialogs insert a <style> element: the CSP must let them work (checked at the end).
    await page.getByRole('button', { name: 'Open settings dialog' }).click();
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  });

  it('runs a nested query with the token typed into the headers editor, and shows what REST holds', async () => {
    const token = DEMO_TOKENS.maintainer;
    await typeInto(page, HEADERS_EDITOR, JSON.stringify({ 'PRIVATE-TOKEN': token }));
    await typeInto(
      page,
      QUERY_EDITOR,
      'query ProjectRunners { currentUser { username } ownedRunners(first: 3, type: PROJECT_TYPE) { count nodes { id description status projects { nodes { fullPath } } } } }',
    );
    await run(page, 'ProjectRunners');
    await expect.poll(() => result(page), { timeout: 15_000 }).toHaveProperty('data.ownedRunners.nodes');
    const shown = await result(page);
    const calls = restCalls(harness.simulator);

    const { username } = await harness.oracle.get<{ username: string }>('/user', token);
    const list = await harness.oracle.call<Array<{ id: number; description: string; status: string }>>('GET', '/runners?type=project_type&per_page=3&page=1', token);
    const nodes = [];
    for (const runner of list.body) {
      const detail = await harness.oracle.get<{ projects: Array<{ id: number; path_with_namespace: string }> }>(`/runners/${runner.id}`, token);
      nodes.push({
        id: gid(runner.id),
        description: runner.description,
        status: runner.status.toUpperCase(),
        // GitLab orders a runner's projects by id (CiRunner.projects' default sort, id_asc).
        projects: { nodes: [...detail.projects].sort((a, b) => a.id - b.id).map((project) => ({ fullPath: project.path_with_namespace })) },
      });
    }
    expect(nodes.length).toBe(3);
    expect(nodes.some((node) => node.projects.nodes.length > 1)).toBe(true);
    expect(shown).toEqual({ data: { currentUser: { username }, ownedRunners: { count: Number(list.headers.get('x-total')), nodes } } });
    // The user, one page of runners, and one detail call per runner for its projects.
    expect(calls.sort()).toEqual(['GET /runners', 'GET /user', ...list.body.map((runner) => `GET /runners/${runner.id}`)].sort());
  });

  it('is refused a subscription without a token, then, with one, shows a runner status change (a new socket, a new connection_init)', async () => {
    const token = DEMO_TOKENS.maintainer;
    const [runner] = await harness.oracle.all<{ id: number }>('/runners?type=group_type&status=active', token);
    const runnerId = runner!.id;
    const subscription = `subscription RunnerStatus { ciRunnerStatusUpdated(runnerId: "${gid(runnerId)}") { id status paused } }`;

    await typeInto(page, HEADERS_EDITOR, JSON.stringify({ 'PRIVATE-TOKEN': '' }));
    await typeInto(page, QUERY_EDITOR, subscription);
    await run(page, 'RunnerStatus');
    await expect.poll(() => editorText(page, RESULT_PANE), { timeout: 15_000 }).toContain('4403');
    expect(harness.gateway.gateway.pollers.activeSubscriptions).toBe(0);

    await typeInto(page, HEADERS_EDITOR, JSON.stringify({ 'PRIVATE-TOKEN': token }));
    await run(page, 'RunnerStatus');
    await until(() => harness.gateway.gateway.pollers.activeSubscriptions === 1, 15_000);
    // The first poll fixes the state a change is measured from.
    await until(() => harness.simulator.requests.some((request) => request.method === 'GET' && request.path === `/runners/${runnerId}`), 15_000);
    const paused = await harness.gateway.query(`mutation { runnerUpdate(input: { id: "${gid(runnerId)}", paused: true }) { runner { paused } } }`, {}, token);
    expect(paused.errors).toBeUndefined();
    const status = graphqlStatusOf(await harness.oracle.get<{ status: string; online: boolean | null }>(`/runners/${runnerId}`, token));
    await expect
      .poll(() => result(page), { timeout: 15_000 })
      .toEqual({ data: { ciRunnerStatusUpdated: { id: gid(runnerId), status, paused: true } } });
    expect(connectionInits).toEqual([{ 'PRIVATE-TOKEN': '' }, { 'PRIVATE-TOKEN': token }]);

    // The run button stops a running subscription; the gateway then stops polling.
    await page.locator(RUN_BUTTON).click();
    await until(() => harness.gateway.gateway.pollers.activePollers === 0, 15_000);
  });

  it('asked no host but the gateway, and met no CSP violation and no unexpected console or page error', () => {
    const expectedHosts = new Set([new URL(origin).host]);
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !expectedHosts.has(new URL(url).host))).toEqual([]);
    expect(requested).toContain(`${origin}/explorer`);
    expect(requested).toContain(harness.gateway.wsUrl);
    expect(requested.filter((url) => url.includes('/explorer/assets/'))).toHaveLength(2);
    // The one console error is GraphiQL logging the refusal the test provoked above.
    expect(problems).toEqual(['Socket closed with event 4403 Forbidden']);
  });
});
