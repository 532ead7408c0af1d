import type { GatewayContext } from '../server/context.js';

/** One operation a WebSocket connection runs: for its log line when it completes, and its text's share of the budget. */
export interface RunningOperation {
  context: GatewayContext;
  startedAt: number;
  textLength: number;
}

/**
 * The operations one WebSocket connection runs, and the query text they hold, kept as counts so
 * that checking a new operation costs the same however many came before. Counting graphql-ws's
 * `ctx.subscriptions` instead (Object.keys per message) made a flood of 20,000 `subscribe`
 * messages quadratic: graphql-ws records every id of a burst before any of them ends (issue 27).
 *
 * An operation leaves at onComplete. One that ended without it (graphql-ws skips onComplete when
 * execution throws) is swept out when the connection reaches a limit, by asking `stillHeld`
 * whether graphql-ws holds it still: at most `limits.operations` checks, and only at a limit.
 */
export class ConnectionOperations {
  private readonly operations = new Map<string, RunningOperation>();
  private text = 0;

  constructor(
    private readonly limits: { operations: number; text: number },
    private readonly stillHeld: (id: string) => boolean,
  ) {}

  /** Operations the connection holds, after sweeping those graphql-ws let go of when at the limit. */
  get count(): number {
    if (this.operations.size >= this.limits.operations) this.sweep();
    return this.operations.size;
  }

  /** Characters of query text the connection's operations hold, swept likewise when `adding` more would pass the limit. */
  textLength(adding: number): number {
    if (this.text + adding > this.limits.text) this.sweep();
    return this.text;
  }

  private sweep(): void {
    for (const id of this.operations.keys()) if (!this.stillHeld(id)) this.remove(id);
  }

  add(id: string, operation: RunningOperation): void {
    this.remove(id);
    this.operations.set(id, operation);
    this.text += operation.textLength;
  }

  get(id: string): RunningOperation | undefined {
    return this.operations.get(id);
  }

  /** The operation, taken out; undefined when it was not running. */
  remove(id: string): RunningOperation | undefined {
    const operation = this.operations.get(id);
    if (!operation) return undefined;
    this.operations.delete(id);
    this.text -= operation.textLength;
    return operation;
  }
}
