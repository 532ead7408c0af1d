import { describe, expect, it } from 'vitest';
import {
  badRequest,
  conflict,
  entityTooLarge,
  forbidden,
  grapeError,
  methodNotAllowed,
  nestedMessageError,
  notFound,
  oauthError,
  routeNotFound,
  throttled,
  tooManyRequests,
  unauthorized,
  unprocessable,
  validationError,
  type ApiError,
} from '../../simulator/http/errors.js';

describe('error bodies (rest-conventions §6)', () => {
  it.each<[string, ApiError, number, unknown]>([
    ['401', unauthorized(), 401, { message: '401 Unauthorized' }],
    ['403', forbidden(), 403, { message: '403 Forbidden' }],
    ['403 with a reason', forbidden('Runner is locked'), 403, { message: '403 Forbidden - Runner is locked' }],
    ['404 of a resource', notFound('Project'), 404, { message: '404 Project Not Found' }],
    ['unknown route', routeNotFound(), 404, { error: '404 Not Found' }],
    ['bad request', badRequest('"title" not given'), 400, { message: '400 Bad request - "title" not given' }],
    ['grape validation', grapeError(400, 'title is missing'), 400, { error: 'title is missing' }],
    ['model validation', validationError({ bio: ['is too long (maximum is 255 characters)'] }), 400, { message: { bio: ['is too long (maximum is 255 characters)'] } }],
    ['409', conflict(), 409, { message: '409 Conflict' }],
    ['422', unprocessable(), 422, { message: '422 Unprocessable Entity' }],
    ['405', methodNotAllowed(), 405, { message: '405 Method Not Allowed' }],
    ['413', entityTooLarge(), 413, { message: '413 Request Entity Too Large' }],
    ['429 helper', tooManyRequests(), 429, { message: '429 Too Many Requests' }],
    ['429 application limit', nestedMessageError(429, 'This endpoint has been requested too many times.'), 429, { message: { error: 'This endpoint has been requested too many times.' } }],
    ['OAuth', oauthError(401, 'invalid_token', 'Bad Access Token.'), 401, { error: 'invalid_token', error_description: 'Bad Access Token.' }],
  ])('%s', (_name, error, status, body) => {
    const response = error.toResponse();
    expect(response.status).toBe(status);
    expect(response.json).toEqual(body);
  });

  it('sends Retry-After with 429s, and Rack::Attack\'s plain text', () => {
    expect(tooManyRequests().toResponse().headers).toEqual({ 'Retry-After': '60' });
    const throttle = throttled().toResponse();
    expect(throttle.text).toBe('Retry later');
    expect(throttle.headers).toMatchObject({ 'Retry-After': '30', 'Content-Type': 'text/plain' });
  });
});
