import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export const SUBSCRIPTION = 'subscription($id: CiRunnerID!) { ciRunnerStatusUpdated(runnerId: $id) { id status paused } }';

export interface RunnerEvent {
  data?: { ciRunnerStatusUpdated: { id: string; status: string; paused: boolean } } | null;
  errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
}

/**
 * The status GitLab's GraphQL gives a runner REST shows so: REST says PAUSED for a paused runner that
 * is neither stale nor new, where GraphQL says ONLINE or OFFLINE (pausing shows in `paused`).
 */
export function graphqlStatusOf(rest: { status: string; online: boolean | null }): string {
  return rest.status === 'paused' ? (rest.online ? 'ONLINE' : 'OFFLINE') : rest.status.toUpperCase();
}

/** A `ciRunnerStatusUpdated` subscription whose events are collected, with a way to wait for the next one. */
export function watch(client: Client, runnerId: number) {
  const events: RunnerEvent[] = [];
  const waiters: Array<() => void> = [];
  let completed = false;
  /** How the subscription ended, for the failure message of a wait it cut short. */
  let ending = '';
  const dispose = client.subscribe<RunnerEvent['data']>(
    { query: SUBSCRIPTION, variables: { id: `gid://gitlab/Ci::Runner/${runnerId}` } },
    {
      next: (event) => {
        events.push(event as RunnerEvent);
        waiters.splice(0).forEach((wake) => wake());
      },
      error: (error: unknown) => {
        completed = true;
        ending = `ended with an error: ${describe(error)}`;
        waiters.splice(0).forEach((wake) => wake());
      },
      complete: () => {
        completed = true;
        ending = 'completed';
        waiters.splice(0).forEach((wake) => wake());
      },
    },
  );
  return {
    events,
    dispose,
    get completed() {
      return completed;
    },
    async nextEvent(timeoutMs = 5_000): Promise<RunnerEvent> {
      const seen = events.length;
      const deadline = Date.now() + timeoutMs;
      while (events.length === seen) {
        if (completed) throw new Error(`no event arrived: the subscription ${ending}`);
        if (Date.now() > deadline) throw new Error(`no event arrived within ${timeoutMs} ms (${events.length} before)`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return events[seen]!;
    },
  };
}

export function connect(gateway: { wsUrl: string }, connectionParams?: Record<string, unknown>, onClose?: (code: number) => void): Client {
  return createClient({
    url: gateway.wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    // The refused connections are expected here; the close code is what the tests check.
    onNonLazyError: () => {},
    ...(connectionParams ? { connectionParams } : {}),
    on: { closed: (event) => onClose?.((event as { code: number }).code) },
  });
}

/** A graphql-ws error as a line: a close event's code and reason, GraphQL errors' messages, or the error. */
function describe(error: unknown): string {
  if (Array.isArray(error)) return error.map((item: { message?: string }) => item.message ?? JSON.stringify(item)).join('; ');
  if (error && typeof error === 'object' && 'code' in error) {
    const close = error as { code: number; reason?: string };
    return `close ${close.code}${close.reason ? ` ${close.reason}` : ''}`;
  }
  return error instanceof Error ? error.message : String(error);
}
