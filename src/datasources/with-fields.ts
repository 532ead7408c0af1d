/** Spread first, so that the copy's hidden class starts from a shared one (see withFields). */
const NOTHING: Readonly<Record<string, never>> = Object.freeze({});

/**
 * A copy of `record` with `fields` added, or replacing its own: what `{ ...record, ...fields }`
 * means, property by property (a `__proto__` key of a JSON record stays a plain key).
 *
 * Why not write that spread: in V8 (Node 20), an object literal that starts with a spread copies
 * the source's hidden class into one with no parent, and each property added to such a copy (by a
 * key or by a second spread) makes a new hidden class, never shared, in the old generation. A REST
 * call per runner spreading its query and adding `page` and `per_page`, and a commit record per
 * job, made about 300 hidden classes per fleet page, with their descriptor arrays and enum caches,
 * and every property read of such a copy missed its inline cache (`npm run bench`,
 * docs/performance.md). Spread after an empty object, the copies share their hidden classes like
 * any literal's. Lint refuses the other forms where copies run per call or per record.
 */
export function withFields<R extends object, F extends object>(record: R, fields: F): Omit<R, keyof F> & F {
  return { ...NOTHING, ...record, ...fields };
}
