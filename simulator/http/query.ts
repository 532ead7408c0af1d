// Parameter parsing the way Rack does it (rest-conventions §1): `a[]=x&a[]=y` is an array,
// `h[k]=v` a hash, `v[0][key]=x` a hash keyed by index, `list[][k]=v` an array of hashes.

import { UploadedFile } from './uploaded-file.js';

export type ParamValue = string | number | boolean | null | UploadedFile | ParamValue[] | { [key: string]: ParamValue };
export type ParamHash = { [key: string]: ParamValue };

const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

export function isParamHash(value: unknown): value is ParamHash {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof UploadedFile);
}

/** Key/value pairs of a query string or form body, decoded (`+` is a space). */
export function decodePairs(raw: string): [string, string][] {
  return [...new URLSearchParams(raw)];
}

/** The query as sent, for the request log: repeated keys become arrays, keys keep their brackets. */
export function flatQuery(raw: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of decodePairs(raw)) {
    if (FORBIDDEN_KEYS.has(key)) continue;
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}

function hasNestedKey(hash: ParamHash, keys: string[]): boolean {
  let current: ParamValue = hash;
  for (const key of keys) {
    if (key === '') return false;
    if (!isParamHash(current) || !(key in current)) return false;
    current = current[key] ?? null;
  }
  return true;
}

function assign(target: ParamHash, name: string, subkeys: string[], value: string): void {
  if (FORBIDDEN_KEYS.has(name)) return;
  const [first, ...rest] = subkeys;
  if (first === undefined) {
    target[name] = value;
    return;
  }
  if (first === '') {
    let list = target[name];
    if (!Array.isArray(list)) {
      list = [];
      target[name] = list;
    }
    const [childKey, ...childRest] = rest;
    if (childKey === undefined) {
      list.push(value);
      return;
    }
    // `list[][k]=v`: keep filling the last hash until a key repeats (Rack's rule).
    const last = list[list.length - 1];
    if (isParamHash(last) && !hasNestedKey(last, rest)) {
      assign(last, childKey, childRest, value);
    } else {
      const hash: ParamHash = {};
      list.push(hash);
      assign(hash, childKey, childRest, value);
    }
    return;
  }
  let hash = target[name];
  if (!isParamHash(hash)) {
    hash = {};
    target[name] = hash;
  }
  assign(hash, first, rest, value);
}

/** Rack-style nested parameters from a query string or an x-www-form-urlencoded body. */
export function parseNested(raw: string): ParamHash {
  const result: ParamHash = {};
  for (const [key, value] of decodePairs(raw)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match?.[1]) {
      if (!FORBIDDEN_KEYS.has(key)) result[key] = value;
      continue;
    }
    const subkeys = [...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? '');
    assign(result, match[1], subkeys, value);
  }
  return result;
}
