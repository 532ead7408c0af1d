// The REST client baseline: what a frontend does today without the gateway. It fetches the same
// data itself over REST with undici, level by level, each level's calls in parallel.
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';

/** A REST caller with the frontend's habits: one token, JSON bodies, every call counted. */
export class RestBaseline {
  /** REST calls made so far. */
  calls = 0;
  private readonly basePath: string;

  constructor(
    baseUrl: string,
    private readonly token: string,
    private readonly dispatcher: Dispatcher,
    /** The client's round trip to the REST server, paid by every call (--client-rtt). */
    private readonly rttMs = 0,
  ) {
    this.basePath = new URL(baseUrl).pathname.replace(/\/+$/, '');
  }

  /** GET a REST path (with its query) and parse the JSON body; anything but 200 throws. */
  async get<T>(path: string): Promise<T> {
    this.calls++;
    if (this.rttMs > 0) await delay(this.rttMs);
    const { statusCode, body } = await this.dispatcher.request({
      method: 'GET',
      path: `${this.basePath}${path}`,
      headers: { 'private-token': this.token, accept: 'application/json' },
    });
    const parsed = (await body.json()) as T;
    if (statusCode !== 200) throw new Error(`REST GET ${path} answered ${statusCode}: ${JSON.stringify(parsed).slice(0, 200)}`);
    return parsed;
  }
}

/** What a scenario's REST baseline function receives in the driver process. */
export interface DriverTools {
  /** A REST client for the embedded v4 server with this token, over the driver's shared pool; `rttMs` is its round trip. */
  rest(token: string, rttMs?: number): RestBaseline;
}

/** The signature of a scenario's REST baseline function (a `function` target of a loop). */
export type BaselineFunction = (tools: DriverTools, args: unknown) => Promise<unknown>;
