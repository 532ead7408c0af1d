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
 * `true`/`false`. `URLSearchParams` encodes `+` as `%2B`, which the REST API requires for ISO 8601
 * offsets.
 */
export function toQueryString(params: RestParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  // URLSearchParams would turn a lone surrogate into U+FFFD: another value than the caller's, sent silently.
  const append = (name: string, value: string | number | boolean) => search.append(requireWellFormed(name, 'A query parameter name'), requireWellFormed(String(value), 'A query argument'));
  for (const [key, value] of Object.entries(params)) {
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
  const text = search.toString();
  return text ? `?${text}` : '';
}
