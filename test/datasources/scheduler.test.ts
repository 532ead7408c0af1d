import { describe, expect, it } from 'vitest';
import { FairScheduler, type SchedulerFlow } from '../../src/datasources/scheduler.js';

/** Calls of one flow, started as the scheduler lets them: how many are running, and which may finish. */
function calls(flow: SchedulerFlow) {
  const running: Array<() => void> = [];
  let started = 0;
  return {
    /** Asks for `n` calls; each is running once the scheduler lets it start. */
    ask(n: number): void {
      for (let i = 0; i < n; i++) {
        const begin = () => {
          started += 1;
          running.push(() => flow.finish());
        };
        const turn = flow.start();
        if (turn) void turn.then(begin);
        else begin();
      }
    },
    /** Ends the oldest running call. */
    finishOne(): void {
      running.shift()?.();
    },
    get started() {
      return started;
    },
  };
}

/** Lets the promise callbacks of granted calls run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the fair scheduler of REST calls', () => {
  it('lets an operation alone use every slot, and no more', async () => {
    const scheduler = new FairScheduler(4);
    const wide = calls(scheduler.flow());
    wide.ask(10);
    await settle();
    expect(wide.started).toBe(4);
    expect(scheduler.running).toBe(4);
    for (let i = 0; i < 10; i++) {
      wide.finishOne();
      await settle();
      expect(scheduler.running).toBeLessThanOrEqual(4);
    }
    expect(wide.started).toBe(10);
    expect(scheduler.running).toBe(0);
  });

  it('gives each freed slot to the waiting operation with the fewest calls in flight, until the shares are equal', async () => {
    const scheduler = new FairScheduler(4);
    const first = scheduler.flow();
    const second = scheduler.flow();
    const a = calls(first);
    const b = calls(second);
    a.ask(20);
    await settle();
    b.ask(20);
    await settle();
    expect([first.inFlight, second.inFlight]).toEqual([4, 0]);
    // Two of the first operation's calls end: both slots go to the second, which had none.
    a.finishOne();
    a.finishOne();
    await settle();
    expect([first.inFlight, second.inFlight]).toEqual([2, 2]);
    // From there on the shares stay equal, whichever operation's call ends.
    for (let i = 0; i < 8; i++) {
      (i % 3 === 0 ? b : a).finishOne();
      await settle();
      expect([first.inFlight, second.inFlight]).toEqual([2, 2]);
    }
  });

  it('starts a small query at the next freed slot, ahead of a wide page queued before it', async () => {
    const scheduler = new FairScheduler(4);
    const wide = calls(scheduler.flow());
    wide.ask(40);
    await settle();
    const small = calls(scheduler.flow());
    small.ask(1);
    await settle();
    expect(small.started).toBe(0);
    wide.finishOne();
    await settle();
    expect(small.started).toBe(1);
    expect(wide.started).toBe(4);
  });

  it('never leaves a call waiting while a slot is free', async () => {
    const scheduler = new FairScheduler(6);
    const flows = [scheduler.flow(), scheduler.flow(2), scheduler.flow()];
    const work = flows.map(calls);
    for (const each of work) each.ask(5);
    await settle();
    for (let round = 0; round < 15; round++) {
      // A call may wait only when the pool is full, or when its own operation is at its ceiling.
      const idleWhileWaiting = flows.some((flow) => flow.waiting.length > 0 && flow.inFlight < flow.ceiling && scheduler.running < scheduler.capacity);
      expect(idleWhileWaiting).toBe(false);
      work[round % 3]!.finishOne();
      await settle();
    }
    expect(work.map((each) => each.started)).toEqual([5, 5, 5]);
  });

  it('keeps an operation under its own ceiling even when slots are free', async () => {
    const scheduler = new FairScheduler(8);
    const capped = scheduler.flow(3);
    const work = calls(capped);
    work.ask(10);
    await settle();
    expect(capped.inFlight).toBe(3);
    expect(scheduler.running).toBe(3);
    work.finishOne();
    await settle();
    expect(capped.inFlight).toBe(3);
    expect(work.started).toBe(4);
  });
});

describe('changing the scheduler capacity (HTTP/2 negotiated, or given up)', () => {
  it('starts waiting calls at once when the capacity grows, and none past a lower one', async () => {
    const scheduler = new FairScheduler(1);
    const work = calls(scheduler.flow());
    work.ask(3);
    await settle();
    expect(work.started).toBe(1);
    scheduler.setCapacity(3);
    await settle();
    expect(work.started).toBe(3);
    scheduler.setCapacity(1);
    work.ask(1);
    work.finishOne();
    await settle();
    // Two calls still run against a capacity of one: the waiting call may not start yet.
    expect(scheduler.running).toBe(2);
    expect(work.started).toBe(3);
    work.finishOne();
    work.finishOne();
    await settle();
    expect(work.started).toBe(4);
    expect(scheduler.running).toBe(1);
  });
});
