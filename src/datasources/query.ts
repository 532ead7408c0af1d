import { requireWellFormed } from './unsendable.js';

/** A REST parameter value before encoding; `undefined` and `null` parameters are left out. */
export type RestParamValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | ReadonlyArray<string | number>
  | Readonly<Record<string, string | number | boolean | undefined | ReadonlyArray<string | number>>>;

export type RestParams = Readonly<Record<string, RestParamValue>>;

/**
 * Encodes parameters the way the REST API reads them (rest-conventions §1): arrays as
 * `key[]=a&key[]=b`, hashes as `key[sub]=v` (and `key[sub][]=v` for arrays in them), booleans as
 * `true`/`false`, each name and value as `URLSearchParams` writes it (formEncode), so `+` as `%2B`,
 * which the REST API requires for ISO 8601 offsets.
 */
export function toQueryString(params: RestParams | undefined): string {
  if (!params) return '';
  let text = '';
  // A lone surrogate is refused: URLSearchParams would have made it U+FFFD, another value than the caller's, sent silently.
  const append = (name: string, value: string | number | boolean) => {
    text += `${text ? '&' : '?'}${formEncode(requireWellFormed(name, 'A query parameter name'))}=${formEncode(requireWellFormed(String(value), 'A query argument'))}`;
  };
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as ReadonlyArray<string | number>) append(`${key}[]`, item);
    } else if (typeof value === 'object') {
      for (const [subKey, subValue] of Object.entries(value)) {
        if (subValue === undefined) continue;
        // An array inside a hash, such as the issue lists' `not[iids][]=1`.
        if (Array.isArray(subValue)) for (const item of subValue as ReadonlyArray<string | number>) append(`${key}[${subKey}][]`, item);
        else append(`${key}[${subKey}]`, subValue as string | number | boolean);
      }
    } else {
      append(key, value);
    }
  }
  return text;
}

/** What encodeURIComponent leaves alone and the form encoding does not, and the space it writes `+`. */
const FORM_DIFFERENCES = /[!'()~]|%20/g;
const FORM_SPELLING: Readonly<Record<string, string>> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E', '%20': '+' };

/**
 * A name or value exactly as `URLSearchParams` serializes it (application/x-www-form-urlencoded:
 * all but ASCII alphanumerics and `*-._` percent-encoded as UTF-8, a space as `+`), for a tenth of
 * its cost: building a URLSearchParams per REST call was a third of what a page call cost to send.
 * Takes well-formed text only (encodeURIComponent throws on a lone surrogate).
 */
export function formEncode(text: string): string {
  return encodeURIComponent(text).replace(FORM_DIFFERENCES, (found) => FORM_SPELLING[found]!);
}
