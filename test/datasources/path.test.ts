import { describe, expect, it } from 'vitest';
import { restPath } from '../../src/datasources/path.js';
import { toQueryString } from '../../src/datasources/query.js';

describe('restPath', () => {
  it.each([
    ['gitlab-org/gitlab', '/projects/gitlab-org%2Fgitlab/runners'],
    ['../../runners/all', '/projects/%2E%2E%2F%2E%2E%2Frunners%2Fall/runners'],
    ['a?b#c', '/projects/a%3Fb%23c/runners'],
    [42, '/projects/42/runners'],
  ])('keeps %j inside one segment', (value, expected) => {
    expect(restPath`/projects/${value}/runners`).toBe(expected);
  });
});

describe('toQueryString', () => {
  it('encodes arrays, hashes, booleans and a plus sign as REST reads them', () => {
    expect(toQueryString({ tag_list: ['a', 'b'], not: { labels: 'x' }, paused: false, since: '2017-10-17T23:11:13.000+05:30', skip: undefined })).toBe(
      '?tag_list%5B%5D=a&tag_list%5B%5D=b&not%5Blabels%5D=x&paused=false&since=2017-10-17T23%3A11%3A13.000%2B05%3A30',
    );
  });
});
