/**
 * Why a REST call was never sent. Each reason says whose fault it is, which decides the caller's
 * answer: a credential no HTTP header can carry (UNAUTHENTICATED), an argument no REST request can
 * carry (BAD_USER_INPUT), or a request the HTTP client refused to build for a reason the gateway
 * did not foresee (a gateway bug: INTERNAL_SERVER_ERROR, logged).
 */
export type UnsentReason = 'invalid-credential' | 'invalid-argument' | 'unbuildable';

/**
 * A REST call refused before anything went on the wire. It is not a RestError on purpose: no
 * upstream took part, so it is never retried, never counted by the circuit breaker, and never an
 * upstream error in the metrics. Otherwise anyone could open the breaker for every caller with a
 * few requests carrying a line break in a token, while GitLab never saw one of them.
 */
export class UnsendableRequest extends Error {
  constructor(
    readonly reason: UnsentReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UnsendableRequest';
  }
}

/**
 * What an HTTP header value can hold, as undici checks it (RFC 9110 field-value): tab, space,
 * visible ASCII and the Latin-1 range. CR, LF, NUL, the other control characters and anything past
 * U+00FF are refused by undici, after the request was counted as a call.
 */
const SENDABLE_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

export function isSendableHeaderValue(value: string): boolean {
  return SENDABLE_HEADER_VALUE.test(value);
}

/** A lone UTF-16 surrogate: valid in a JSON string (`"\ud800"`), yet no UTF-8 text, so no URL or REST body, can hold it. */
const LONE_SURROGATE = /\p{Cs}/u;

/** The caller's text as it may go into a query string or body; `what` names it in the refusal. */
export function requireWellFormed(text: string, what: string): string {
  if (LONE_SURROGATE.test(text)) throw loneSurrogate(what);
  return text;
}

export function loneSurrogate(what: string, cause?: unknown): UnsendableRequest {
  return new UnsendableRequest(
    'invalid-argument',
    `${what} holds a lone UTF-16 surrogate (such as "\\ud800"), which no REST request can carry.`,
    { cause },
  );
}
