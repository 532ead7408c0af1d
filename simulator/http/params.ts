// Typed route parameters with Grape's coercion and its error bodies (rest-conventions §6.4):
// a missing required param -> 400 {"error":"token is missing"}, a bad type -> "active is invalid",
// a value outside the allowed set -> "type does not have a valid value", several joined by ", ".
import { isParamHash, type ParamHash, type ParamValue } from './query.js';
import { UploadedFile } from './uploaded-file.js';

export type ParamKind = 'integer' | 'boolean' | 'string' | 'string[]' | 'integer[]' | 'hash' | 'hash[]' | 'file';

interface ParamOptions {
  required: boolean;
  values?: readonly (string | number)[];
  defaultValue?: unknown;
  commaSeparated?: boolean;
  nullable?: boolean;
}

/** A parameter declaration. `T` is the coerced type, `R` whether a value is always present. */
export class Param<T, R extends boolean = false> {
  declare readonly _type: T;
  declare readonly _required: R;

  constructor(
    readonly kind: ParamKind,
    readonly options: ParamOptions = { required: false },
  ) {}

  required(): Param<T, true> {
    return new Param(this.kind, { ...this.options, required: true });
  }

  /** Value used when the parameter is absent (Grape `default:`). */
  default(value: T): Param<T, true> {
    return new Param(this.kind, { ...this.options, defaultValue: value });
  }

  /** Allowed values (for arrays: allowed elements); others give "does not have a valid value". */
  values(values: readonly (string | number)[]): Param<T, R> {
    return new Param(this.kind, { ...this.options, values });
  }

  /** Also accept `a,b,c` for a string array (GitLab's CommaSeparatedToArray coercion). */
  commaSeparated(): Param<T, R> {
    return new Param(this.kind, { ...this.options, commaSeparated: true });
  }

  /** Let an explicit JSON `null` through (to clear a field) instead of treating it as absent. */
  nullable(): Param<T | null, R> {
    return new Param(this.kind, { ...this.options, nullable: true });
  }
}

export const p = {
  integer: () => new Param<number>('integer'),
  boolean: () => new Param<boolean>('boolean'),
  string: () => new Param<string>('string'),
  stringArray: () => new Param<string[]>('string[]'),
  integerArray: () => new Param<number[]>('integer[]'),
  hash: () => new Param<ParamHash>('hash'),
  /** An array of hashes: a JSON array of objects, or `list[][key]=value` form fields (commit `actions`). */
  hashArray: () => new Param<ParamHash[]>('hash[]'),
  /** A file part of a multipart/form-data body. */
  file: () => new Param<UploadedFile>('file'),
};

export type ParamSpecs = Record<string, Param<unknown, boolean>>;

export type ParamsOf<S extends ParamSpecs> = {
  [K in keyof S]: S[K] extends Param<infer T, infer R> ? (R extends true ? T : T | undefined) : never;
};

/** Cross-parameter rules (Grape's `at_least_one_of`, `mutually_exclusive`). */
export interface ParamRules {
  atLeastOneOf?: readonly string[];
  mutuallyExclusive?: readonly (readonly string[])[];
}

// dry-types Params::Bool, which Grape uses for Boolean.
const TRUE_VALUES = new Set(['true', 't', '1', 'yes', 'y', 'on']);
const FALSE_VALUES = new Set(['false', 'f', '0', 'no', 'n', 'off']);

const INVALID = Symbol('invalid');

function coerceInteger(value: ParamValue): number | typeof INVALID {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^[+-]?\d+$/.test(value.trim())) return Number(value.trim());
  return INVALID;
}

function coerceScalar(kind: ParamKind, value: ParamValue, commaSeparated: boolean): unknown {
  switch (kind) {
    case 'integer':
      return coerceInteger(value);
    case 'boolean': {
      if (typeof value === 'boolean') return value;
      if (typeof value !== 'string' && typeof value !== 'number') return INVALID;
      const text = String(value).toLowerCase();
      if (TRUE_VALUES.has(text)) return true;
      if (FALSE_VALUES.has(text)) return false;
      return INVALID;
    }
    case 'string':
      if (value instanceof UploadedFile) return INVALID;
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : INVALID;
    case 'string[]': {
      const split = (text: string) =>
        commaSeparated
          ? text
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== '')
          : [text];
      if (typeof value === 'string' && commaSeparated) return split(value);
      if (!Array.isArray(value)) return INVALID;
      const result: string[] = [];
      for (const item of value) {
        if (typeof item !== 'string' && typeof item !== 'number') return INVALID;
        result.push(...split(String(item)));
      }
      return result;
    }
    case 'integer[]': {
      if (!Array.isArray(value)) return INVALID;
      const result: number[] = [];
      for (const item of value) {
        const n = coerceInteger(item);
        if (n === INVALID) return INVALID;
        result.push(n);
      }
      return result;
    }
    case 'hash':
      return isParamHash(value) ? value : INVALID;
    case 'hash[]':
      return Array.isArray(value) && value.every(isParamHash) ? value : INVALID;
    case 'file':
      return value instanceof UploadedFile ? value : INVALID;
  }
}

function inAllowedValues(value: unknown, allowed: readonly (string | number)[]): boolean {
  const items = Array.isArray(value) ? value : [value];
  return items.every((item) => allowed.includes(item as string | number));
}

export interface ValidationResult {
  values: Record<string, unknown>;
  errors: string[];
}

/** Coerces and validates `raw` against `specs`; unknown parameters are dropped (declared_params). */
export function validateParams(specs: ParamSpecs, rules: ParamRules, raw: ParamHash): ValidationResult {
  const values: Record<string, unknown> = {};
  const errors: string[] = [];
  const present = (name: string) => raw[name] !== undefined && (raw[name] !== null || specs[name]?.options.nullable === true);

  for (const [name, spec] of Object.entries(specs)) {
    const { options } = spec;
    const value = raw[name];
    if (!present(name)) {
      if (options.defaultValue !== undefined) values[name] = options.defaultValue;
      else if (options.required) errors.push(`${name} is missing`);
      continue;
    }
    if (value === null || value === undefined) {
      values[name] = null;
      continue;
    }
    const coerced = coerceScalar(spec.kind, value, options.commaSeparated === true);
    if (coerced === INVALID) {
      errors.push(`${name} is invalid`);
      continue;
    }
    if (options.values && !inAllowedValues(coerced, options.values)) {
      errors.push(`${name} does not have a valid value`);
      continue;
    }
    values[name] = coerced;
  }

  if (rules.mutuallyExclusive) {
    for (const group of rules.mutuallyExclusive) {
      const given = group.filter(present);
      if (given.length > 1) errors.push(`${given.join(', ')} are mutually exclusive`);
    }
  }
  if (rules.atLeastOneOf && !rules.atLeastOneOf.some(present)) {
    errors.push(`${rules.atLeastOneOf.join(', ')} are missing, at least one parameter must be provided`);
  }
  return { values, errors };
}
