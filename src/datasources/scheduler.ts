/**
 * Shares the upstream's connections among the operations that want them (issue 16).
 *
 * A fixed cap per operation wastes the pool when one operation runs alone (a page of 200 calls
 * waits behind 16 slots while 48 connections idle) and still lets a few wide pages crowd the rest
 * out. The scheduler is work-conserving and fair instead:
 * - a call starts at once while fewer than `capacity` calls are in flight, whoever makes it: an
 *   operation alone may use every connection, and nothing waits while a connection is idle;
 * - when the pool is full, each freed slot goes to the waiting operation with the fewest calls in
 *   flight (max-min fairness), so under contention every operation converges on an equal share,
 *   and a small query waits for one slot to free, never behind a wide page's queue;
 * - an operation's own ceiling (MAX_CONCURRENT_REST_CALLS, the whole pool by default) is respected.
 *
 * One scheduler belongs to one RestClient; each RestSession is one flow.
 */
export class FairScheduler {
  private inFlight = 0;
  /** Flows with calls waiting, in the order they started waiting (the tie-break among equals). */
  private readonly waitingFlows = new Set<SchedulerFlow>();
  /** Counters for tests and metrics: how calls were admitted. */
  readonly stats = { started: 0, queued: 0 };

  constructor(private slots: number) {
    assertRoom(slots);
  }

  /** Calls that may be in flight at once. */
  get capacity(): number {
    return this.slots;
  }

  /**
   * Changes how many calls may be in flight, as the upstream's protocol becomes known (the REST
   * client's HTTP/2 multiplexing, rest-client.ts). Growing hands the new slots to waiting flows at
   * once, fairly; shrinking cuts no call in flight: none starts until they have fallen below it.
   */
  setCapacity(capacity: number): void {
    assertRoom(capacity);
    this.slots = capacity;
    this.dispatch();
  }

  /** A new flow: the calls of one operation (or of one subscription poller). */
  flow(ceiling: number = Number.POSITIVE_INFINITY): SchedulerFlow {
    return new SchedulerFlow(this, Math.max(1, ceiling));
  }

  /** Calls in flight across every flow. */
  get running(): number {
    return this.inFlight;
  }

  /** Starts a call now if there is room; the hot path's call never allocates a promise. */
  tryStart(flow: SchedulerFlow): boolean {
    if (this.inFlight >= this.slots || flow.inFlight >= flow.ceiling || flow.waiting.length > 0) return false;
    this.inFlight += 1;
    flow.inFlight += 1;
    this.stats.started += 1;
    return true;
  }

  /** Waits for a slot; resolved by `finish` of some other call, which hands its slot over. */
  wait(flow: SchedulerFlow): Promise<void> {
    this.stats.queued += 1;
    return new Promise<void>((resolve) => {
      flow.waiting.push(resolve);
      this.waitingFlows.add(flow);
      // Room may be free already (the flow was only held back by its own queue): don't wait for a release.
      this.dispatch();
    });
  }

  finish(flow: SchedulerFlow): void {
    this.inFlight -= 1;
    flow.inFlight -= 1;
    this.dispatch();
  }

  /** Hands free slots to the waiting flows with the fewest calls in flight. */
  private dispatch(): void {
    while (this.inFlight < this.slots && this.waitingFlows.size > 0) {
      let chosen: SchedulerFlow | undefined;
      for (const flow of this.waitingFlows) {
        if (flow.inFlight < flow.ceiling && (chosen === undefined || flow.inFlight < chosen.inFlight)) chosen = flow;
      }
      if (!chosen) return; // every waiting flow is at its own ceiling
      const start = chosen.waiting.shift()!;
      if (chosen.waiting.length === 0) this.waitingFlows.delete(chosen);
      else {
        // Back of the line among equals: the next slot goes to another flow with as few calls.
        this.waitingFlows.delete(chosen);
        this.waitingFlows.add(chosen);
      }
      this.inFlight += 1;
      chosen.inFlight += 1;
      this.stats.started += 1;
      start();
    }
  }
}

function assertRoom(capacity: number): void {
  if (!(capacity >= 1)) throw new RangeError('A scheduler needs room for at least one call.');
}

/** The calls of one operation as the scheduler sees them. */
export class SchedulerFlow {
  inFlight = 0;
  readonly waiting: Array<() => void> = [];

  constructor(
    private readonly scheduler: FairScheduler,
    readonly ceiling: number,
  ) {}

  /** Resolves when the call may start: at once when there is room. */
  start(): Promise<void> | undefined {
    return this.scheduler.tryStart(this) ? undefined : this.scheduler.wait(this);
  }

  finish(): void {
    this.scheduler.finish(this);
  }
}
