import { describe, expect, it } from 'vitest';
import { restPath } from '../../src/datasources/path.js';
import { formEncode, toQueryString } from '../../src/datasources/query.js';

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

describe('formEncode', () => {
  it('writes every name and value as URLSearchParams does', () => {
    // Every ASCII character, spaces and the characters encodeURIComponent spares (!'()*~), UTF-8
    // of two, three and four bytes, and random text over the Basic Multilingual Plane and beyond.
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('');
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const randomText = () =>
      Array.from({ length: 40 }, () => {
        const code = Math.floor(random() * 0x10ffff);
        // Surrogate code points alone are not well-formed text, which no caller's value reaches here with.
        return code >= 0xd800 && code <= 0xdfff ? 'x' : String.fromCodePoint(code);
      }).join('');
    const samples = [ascii, ' a b ', "it's (fine)! ~*", 'é€😀', '2017-10-17T23:11:13.000+05:30', '', ...Array.from({ length: 200 }, randomText)];
    for (const text of samples) {
      const expected = new URLSearchParams([[text, text]]).toString();
      expect(`${formEncode(text)}=${formEncode(text)}`).toBe(expected);
    }
  });
});
