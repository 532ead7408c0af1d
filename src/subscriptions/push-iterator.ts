/**
 * An async iterator fed from outside: the poller pushes, graphql-ws pulls. `return()` (the client
 * unsubscribed or disconnected) ends it and tells its owner, so the poller can stop.
 */
export class PushIterator<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
  private readonly waiting: Array<(result: IteratorResult<T>) => void> = [];
  private done = false;

  constructor(private readonly onEnd: () => void) {}

  push(value: T): void {
    if (this.done) return;
    const resolve = this.waiting.shift();
    if (resolve) resolve({ value, done: false });
    else this.queue.push(value);
  }

  /** Ends the stream once the values already pushed have been read. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.onEnd();
    for (const resolve of this.waiting.splice(0)) resolve({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    const value = this.queue.shift();
    if (value !== undefined) return Promise.resolve({ value, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.queue.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
