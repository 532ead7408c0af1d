import { describe, expect, it } from 'vitest';
import { GraphQLError } from 'graphql';
import { RestError } from '../src/datasources/rest-error.js';
import { codeForRestError, formatError, graphQLErrorFromRest } from '../src/errors/graphql-errors.js';

const restError = (status: number, body?: unknown, failure?: 'timeout' | 'connection' | 'malformed-body') =>
  new RestError({ method: 'GET', path: '/runners/6', status, body, ...(failure ? { failure } : {}) });

describe('the REST status to error code table', () => {
  it.each([
    [400, 'BAD_USER_INPUT'],
    [401, 'UNAUTHENTICATED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [405, 'BAD_USER_INPUT'],
    [409, 'CONFLICT'],
    [422, 'BAD_USER_INPUT'],
    [429, 'RATE_LIMITED'],
    [500, 'UPSTREAM_ERROR'],
    [502, 'UPSTREAM_UNAVAILABLE'],
    [503, 'UPSTREAM_UNAVAILABLE'],
    [504, 'UPSTREAM_UNAVAILABLE'],
  ])('maps %i to %s', (status, code) => {
    expect(codeForRestError(restError(status))).toBe(code);
  });

  it('maps timeouts and refused connections to UPSTREAM_UNAVAILABLE, broken bodies to UPSTREAM_ERROR', () => {
    expect(codeForRestError(restError(0, undefined, 'timeout'))).toBe('UPSTREAM_UNAVAILABLE');
    expect(codeForRestError(restError(0, undefined, 'connection'))).toBe('UPSTREAM_UNAVAILABLE');
    expect(codeForRestError(restError(200, undefined, 'malformed-body'))).toBe('UPSTREAM_ERROR');
  });
});

describe('REST error bodies (rest-conventions §6)', () => {
  it.each([
    [{ message: '404 Runner Not Found' }, '404 Runner Not Found'],
    [{ error: 'token is missing' }, 'token is missing'],
    [{ message: { title: ['is too long'], path: ['has already been taken'] } }, 'title is too long; path has already been taken'],
    [{ message: { error: 'Your snippet has been recognized as spam' } }, 'Your snippet has been recognized as spam'],
    [{ error: 'invalid_token', error_description: 'Token is expired.' }, 'Token is expired.'],
    ['Retry later', 'Retry later'],
  ])('reads %j as "%s"', (body, reason) => {
    expect(restError(400, body).reason).toBe(reason);
  });

  it('keeps the REST status, message and retry hint in extensions', () => {
    const error = new RestError({ method: 'GET', path: '/runners', status: 429, body: 'Retry later', retryAfterSeconds: 30 });
    expect(graphQLErrorFromRest(error).extensions).toMatchObject({
      code: 'RATE_LIMITED',
      restStatus: 429,
      restMessage: 'Retry later',
      retryAfterSeconds: 30,
    });
  });
});

describe('formatError', () => {
  it('scrubs tokens from messages and extensions', () => {
    const error = restError(403, { message: '403 Forbidden - token glpat-abcdef123456 has no scope' });
    const formatted = formatError(new GraphQLError('wrapped', { originalError: error }).toJSON(), new GraphQLError('wrapped', { originalError: error }));
    expect(JSON.stringify(formatted)).not.toContain('glpat-abcdef123456');
    expect(formatted.extensions?.['code']).toBe('FORBIDDEN');
  });

  it('hides the details of unexpected errors', () => {
    const internal = new GraphQLError('boom', { originalError: new TypeError('secret detail of http://10.0.0.5/api/v4') });
    const formatted = formatError(internal.toJSON(), internal);
    expect(formatted.message).toBe('Internal error in the gateway');
    expect(formatted.extensions?.['code']).toBe('INTERNAL_SERVER_ERROR');
  });
});
