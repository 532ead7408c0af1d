/**
 * `{ ...base, ...extra }` for a `base` the presenter has just made and owns: the same keys in the
 * same order (an overridden key keeps its place, new keys follow), built by adding to `base`.
 *
 * Why not the spread: in Node 20's V8 an object literal that opens with a spread and goes on with
 * more properties takes a slow path for each property after it. A 26-field issue extended with 20
 * more cost 40 µs that way against 0.6 µs here, and list answers make one per item (a page of 100
 * issues spent 6 ms in it). Never pass a shared object as `base`: it is changed in place.
 */
export function extend<Base extends object, Extra extends object>(base: Base, extra: Extra): Omit<Base, keyof Extra> & Extra {
  return Object.assign(base, extra);
}
