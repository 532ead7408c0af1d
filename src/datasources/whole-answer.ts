// One REST exchange whose answer is read whole, through undici's dispatch handler rather than
// `dispatcher.request`. `request` makes every body a Readable stream (with an AsyncResource, a
// read buffer, end-of-stream bookkeeping and a tick per chunk) that the REST client then only
// drained into one buffer; on the fleet page (201 calls) that machinery and its garbage were about
// a tenth of the gateway's CPU (issue 29). Downloads, which are streamed on, still use `request`.
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
  return new Promise((resolve, reject) => {
    let answer: { statusCode: number; headers: Headers } | undefined;
    const body = new BoundedBody(limit);
    let settled = false;
    // The exchange's controller once undici starts it, and why it was cut if the signal fired first.
    let started: Dispatcher.DispatchController | undefined;
    let cutFor: Error | undefined;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      stopListening?.();
      outcome();
    };
    // Listened to from the start, not from onRequestStart: a call still queued for a connection when
    // the deadline passes fails then, as `request` made it, and is cut as soon as undici starts it.
    const stopListening =
      signal &&
      onAbort(signal, () => {
        const reason = abortReason(signal);
        cutFor = reason;
        if (started) started.abort(reason);
        else settle(() => reject(reason));
      });
    const cutOversized = (controller: Dispatcher.DispatchController, statusCode: number, headers: Headers) => {
      settle(() => resolve({ statusCode, headers, body: undefined }));
      controller.abort(new OversizedBody());
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        started = controller;
        if (cutFor) controller.abort(cutFor);
      },
      onResponseStart(controller, statusCode, headers) {
        if (statusCode < 200) return;
        answer = { statusCode, headers };
        if (body.announcesTooMuch(headers['content-length'])) cutOversized(controller, statusCode, headers);
      },
      onResponseData(controller, chunk) {
        if (settled || !answer) return;
        if (!body.add(chunk)) cutOversized(controller, answer.statusCode, answer.headers);
      },
      onResponseEnd() {
        if (!answer) return settle(() => reject(new undiciErrors.SocketError('The upstream ended the exchange without an answer.')));
        const { statusCode, headers } = answer;
        settle(() => resolve({ statusCode, headers, body: body.bytes() }));
      },
      onResponseError(_controller, error) {
        settle(() => reject(answer ? new BodyReadFailure(answer.statusCode, answer.headers, error) : error));
      },
    };
    dispatcher.dispatch(options, handler);
  });
}

/** The signal's own reason, as `request` reports an aborted call. */
function abortReason(signal: ExchangeSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new undiciErrors.RequestAbortedError();
}

/** Calls `onAborted` once when the signal aborts; returns what stops listening. */
function onAbort(signal: ExchangeSignal, onAborted: () => void): () => void {
  if ('addEventListener' in signal) {
    signal.addEventListener('abort', onAborted, { once: true });
    return () => signal.removeEventListener('abort', onAborted);
  }
  signal.once('abort', onAborted);
  return () => signal.off('abort', onAborted);
}
