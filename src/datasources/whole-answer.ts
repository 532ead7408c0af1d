// One REST exchange whose answer is read whole, through undici's dispatch handler rather than
// `dispatcher.request`. `request` makes every body a Readable stream (with an AsyncResource, a
// read buffer, end-of-stream bookkeeping and a tick per chunk) that the REST client then only
// drained into one buffer; on the fleet page (201 calls) that machinery and its garbage were about
// a tenth of the gateway's CPU (issue 29). Downloads, which are streamed on, still use `request`, and
// so does a dispatcher of the embedder's own (exchangeByRequest, rest-client.ts): this handler speaks
// only undici 7's handler API, which an interceptor written for the older one does not serve.
import { errors as undiciErrors, type Dispatcher } from 'undici';
import type { EventEmitter } from 'node:events';
import { BoundedBody } from './bounded-body.js';

type Headers = Dispatcher.ResponseData['headers'];

/** An answer read whole: its body, or undefined when the body ran past the limit (then the exchange was cut). */
export interface WholeAnswer {
  statusCode: number;
  headers: Headers;
  body: Buffer | undefined;
}

/** The exchange failed once an answer's headers had arrived (its body timed out or its connection dropped). */
export class BodyReadFailure extends Error {
  constructor(
    readonly statusCode: number,
    readonly headers: Headers,
    readonly failure: unknown,
  ) {
    super('The REST answer failed while its body was read.', { cause: failure });
  }
}

/** What may cut an exchange short: the session's DeadlineSignal (an EventEmitter) or an AbortSignal. */
export type ExchangeSignal = AbortSignal | (EventEmitter & { aborted: boolean; reason: unknown });

/** Why a body past the limit was cut: never reported, the answer says `body: undefined`. */
class OversizedBody extends Error {}

/**
 * Sends `options` and reads the answer whole, holding at most `limit` bytes of its body: a body
 * announced larger (Content-Length) or found larger as it arrives is cut there, its connection
 * closed, and the answer comes back with `body: undefined`. Rejects with what undici reported when
 * no answer arrived (a connection error, a headers timeout, a request undici refused to build), or
 * with a BodyReadFailure when the body failed after the headers. Informational (1xx) answers are
 * skipped, as `request` skips them.
 */
export function exchangeWhole(dispatcher: Dispatcher, options: Dispatcher.DispatchOptions, limit: number, signal: ExchangeSignal | undefined): Promise<WholeAnswer> {
  // Cut before it is sent: nothing goes upstream.
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => dispatcher.dispatch(options, new WholeExchange(limit, resolve, reject, signal)));
}

/**
 * One exchange's handler: an object whose methods are on its prototype, where closures over the
 * exchange's state made eight functions and a context per call (2% of what a fleet page of 201
 * calls allocates, by a sampling heap profile).
 */
class WholeExchange implements Dispatcher.DispatchHandler {
  private answer: { statusCode: number; headers: Headers } | undefined;
  private readonly body: BoundedBody;
  private settled = false;
  /** The exchange's controller once undici starts it. */
  private started: Dispatcher.DispatchController | undefined;
  /** Why it was cut, when the signal fired before undici started it. */
  private cutFor: Error | undefined;
  private readonly stopListening: (() => void) | undefined;

  constructor(
    limit: number,
    private readonly resolve: (answer: WholeAnswer) => void,
    private readonly reject: (reason: unknown) => void,
    signal: ExchangeSignal | undefined,
  ) {
    this.body = new BoundedBody(limit);
    // Listened to from the start, not from onRequestStart: a call still queued for a connection when
    // the deadline passes fails then, as `request` made it, and is cut as soon as undici starts it.
    this.stopListening = signal && onAbort(signal, () => this.cut(abortReason(signal)));
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.started = controller;
    if (this.cutFor) controller.abort(this.cutFor);
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: Headers): void {
    if (statusCode < 200) return;
    this.answer = { statusCode, headers };
    if (this.body.announcesTooMuch(headers['content-length'])) this.cutOversized(controller);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled || !this.answer) return;
    if (!this.body.add(chunk)) this.cutOversized(controller);
  }

  onResponseEnd(): void {
    const { answer } = this;
    if (!this.settle()) return;
    if (answer) this.resolve({ statusCode: answer.statusCode, headers: answer.headers, body: this.body.bytes() });
    else this.reject(new undiciErrors.SocketError('The upstream ended the exchange without an answer.'));
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    const { answer } = this;
    if (this.settle()) this.reject(answer ? new BodyReadFailure(answer.statusCode, answer.headers, error) : error);
  }

  /** The signal fired: the exchange is cut where it is, or fails now if undici has not started it. */
  private cut(reason: Error): void {
    this.cutFor = reason;
    if (this.started) this.started.abort(reason);
    else if (this.settle()) this.reject(reason);
  }

  /** A body past the limit: the answer comes back without it, and its connection is closed. */
  private cutOversized(controller: Dispatcher.DispatchController): void {
    const { statusCode, headers } = this.answer!;
    if (this.settle()) this.resolve({ statusCode, headers, body: undefined });
    controller.abort(new OversizedBody());
  }

  /** True the first time only: the exchange is settled once, and stops listening to its signal then. */
  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.stopListening?.();
    return true;
  }
}

/** The signal's own reason, as `request` reports an aborted call. */
export function abortReason(signal: ExchangeSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new undiciErrors.RequestAbortedError();
}

/** Calls `onAborted` once when the signal aborts; returns what stops listening. */
export function onAbort(signal: ExchangeSignal, onAborted: () => void): () => void {
  if ('addEventListener' in signal) {
    signal.addEventListener('abort', onAborted, { once: true });
    return () => signal.removeEventListener('abort', onAborted);
  }
  signal.once('abort', onAborted);
  return () => signal.off('abort', onAborted);
}
