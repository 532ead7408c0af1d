/**
 * The REST API's base URL from what an operator gives. GitLab's clients (gitbeaker's `host`,
 * python-gitlab's `url`) take the instance URL, so both forms are accepted: the instance URL, at
 * the host's root or under a relative root (`https://example.com/gitlab`), gets `/api/v4` added;
 * the `/api/v4` URL is taken as it is. Forms that would answer 404 on every call are refused at
 * start with what to give instead: another API version or `/api` alone, and GitLab page URLs
 * (their `/-/` separator never appears in an instance's root).
 */
export type RestBaseUrl = { url: string } | { expected: string };

const API_PATH = '/api/v4';

export function restBaseUrl(input: string): RestBaseUrl {
  const url = URL.canParse(input) ? new URL(input) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    return { expected: 'an http(s) URL such as https://gitlab.example.com (or https://gitlab.example.com/api/v4)' };
  }
  if (url.username || url.password) return { expected: 'a URL that does not carry credentials (callers send their own tokens)' };
  if (url.search || url.hash) return { expected: 'a URL without a query string or fragment' };
  const path = url.pathname.replace(/\/+$/, '');
  const instance = `${url.origin}${path.replace(/\/api(\/v\d+)?$/, '')}`;
  const forms = `the instance URL (${instance}) or its REST API URL (${instance}${API_PATH})`;
  if (path.endsWith(API_PATH)) return { url: `${url.origin}${path}` };
  if (/\/api(\/v\d+)?$/.test(path)) return { expected: `${forms}; the gateway speaks REST API v4 only` };
  if (path.includes('/-/')) return { expected: `${forms}, not the URL of a page` };
  return { url: `${url.origin}${path}${API_PATH}` };
}
