import type { FieldCost } from '../cost/field-cost.js';
import { restRoute, type RestRoute } from '../datasources/rest-route.js';

/**
 * What one field says about itself, once, next to its resolver: what it costs in REST calls and
 * which REST endpoints it reads or writes. The cost estimate (src/cost/estimate.ts) and the REST
 * mapping page (docs/rest-fields.md, written by `npm run codegen`) read it from the resolver;
 * the patterns of patterns.ts derive the resolver itself from it.
 */
export interface FieldDeclaration {
  readonly cost: FieldCost;
  /** The REST endpoints the field calls, in the order it may call them. */
  readonly rest: readonly RestRoute[];
  /**
   * The field answers from the parent's REST record as every field without a resolver does
   * (record-fields.ts): its resolver is only the carrier of this declaration.
   */
  readonly readsRecord?: boolean;
}

/** How a module writes a declaration: routes as GitLab's documentation writes them. */
export interface DeclarationSpec extends FieldCost {
  /** `GET /projects/:id/deploy_keys`, ... */
  rest?: readonly (string | RestRoute)[];
}

// Keyed by the resolver function, as the lookahead marks its list resolvers: the resolver map
// stays the one place that wires a field, and the declaration travels with whatever wires it.
const declarations = new WeakMap<object, FieldDeclaration>();

export function toDeclaration({ rest = [], ...cost }: DeclarationSpec, readsRecord = false): FieldDeclaration {
  const routes = rest.map((route) => (typeof route === 'string' ? restRoute(route) : route));
  return Object.freeze({ cost, rest: routes, ...(readsRecord ? { readsRecord } : {}) });
}

/**
 * A hand-written resolver with what it costs: every resolver that takes the context (and so can
 * reach REST) declares it, or the resolver map refuses to assemble (resolvers/index.ts).
 *
 *   subscribed: declared({ calls: 1, rest: ['GET /projects/:id/issues/:issue_iid'] }, (issue, _args, { loaders }) => ...)
 */
export function declared<R extends object>(spec: DeclarationSpec, resolve: R): R {
  return attach(resolve, toDeclaration(spec));
}

/** Marks `resolve` as declared by `declaration` (the patterns' resolvers). */
export function attach<R extends object>(resolve: R, declaration: FieldDeclaration): R {
  if (declarations.has(resolve)) throw new Error('One resolver function cannot carry two declarations; write a resolver per field');
  declarations.set(resolve, declaration);
  return resolve;
}

/** The declaration a resolver carries, if any. */
export function declarationOf(resolve: unknown): FieldDeclaration | undefined {
  return typeof resolve === 'function' ? declarations.get(resolve) : undefined;
}
