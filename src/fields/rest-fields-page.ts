import { getNamedType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { RestRoute } from '../datasources/rest-route.js';
import type { Count, FieldCost } from '../cost/field-cost.js';
import { declarationOf, type FieldDeclaration } from './declaration.js';

/** The resolver map's fields with their declarations, by type then field, in the schema's order of names. */
export function declaredFields(schema: GraphQLSchema, resolvers: Readonly<Record<string, unknown>>): Array<{ type: string; field: string; declaration: FieldDeclaration }> {
  const found: Array<{ type: string; field: string; declaration: FieldDeclaration }> = [];
  for (const type of Object.values(schema.getTypeMap()).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!isObjectType(type)) continue;
    const typeResolvers = resolvers[type.name] as Readonly<Record<string, unknown>> | undefined;
    for (const field of Object.keys(type.getFields()).sort()) {
      const resolver = typeResolvers?.[field];
      const declaration = declarationOf(resolver) ?? declarationOf((resolver as { subscribe?: unknown } | undefined)?.subscribe);
      if (declaration) found.push({ type: type.name, field, declaration });
    }
  }
  return found;
}

function countText(count: Count | undefined, unit: string): string | undefined {
  if (count === undefined) return undefined;
  if (count === 'window') return `the window's ${unit === 'call' ? 'REST pages' : 'items'}`;
  if (typeof count === 'function') return `${unit}s by its arguments`;
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/** What a declared cost says, in words, for the page. */
function costText(cost: FieldCost): string {
  const parts: string[] = [];
  const calls = countText(cost.calls, 'call');
  if (calls) parts.push(cost.unlessParentHas ? `${calls} unless the record has \`${cost.unlessParentHas}\`` : calls);
  if (cost.reads?.length) parts.push(`reads ${cost.reads.map((key) => `\`${key}\``).join(', ')}${cost.loader ? ` (${cost.loader} record)` : ''}`);
  const items = countText(cost.items, 'item');
  if (items && cost.items !== 'window') parts.push(`at most ${items}`);
  if (cost.callsPerItem) parts.push(`${cost.callsPerItem} call per item`);
  return parts.length > 0 ? parts.join('; ') : 'none: answers from the record';
}

/** A resolver module as src/__generated__/resolver-modules.ts lists it: its path under src/resolvers/. */
export interface ResolverModule {
  readonly path: string;
  readonly resolvers: unknown;
}

/**
 * Each field's domain, `Type.field` -> the folder of src/resolvers/ whose module resolves it
 * (`runners/Query.ts` -> `runners`; a module at the top, `node.ts`, is its own domain, `node`).
 * Read from the module list the resolver map is assembled from, which refuses a field two modules
 * resolve, so each field has one.
 */
export function fieldDomains(modules: readonly ResolverModule[]): Map<string, string> {
  const domains = new Map<string, string>();
  for (const { path, resolvers } of modules) {
    const domain = path.includes('/') ? path.slice(0, path.indexOf('/')) : path.replace(/\.ts$/, '');
    for (const [type, fields] of Object.entries(resolvers as Record<string, unknown>)) {
      if (typeof fields !== 'object' || fields === null) continue;
      for (const field of Object.keys(fields)) domains.set(`${type}.${field}`, domain);
    }
  }
  return domains;
}

// A connection's window is the same four arguments on every list: the page leaves them out.
const WINDOW_ARGUMENTS = new Set(['first', 'after', 'last', 'before']);

/** `Project.pipelines(sha, ref, status)`, `Mutation.runnerUpdate(input)`, `CiRunner.managers`: a field as a caller writes it. */
export function fieldSignature(type: string, field: GraphQLField<unknown, unknown>): string {
  const isConnection = getNamedType(field.type).name.endsWith('Connection');
  const args = field.args.map((arg) => arg.name).filter((name) => !(isConnection && WINDOW_ARGUMENTS.has(name)));
  return `${type}.${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}`;
}

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'DELETE'];

/** Routes by path, then GET, POST, PUT, DELETE: a route's reads and writes side by side. */
function byPath(a: RestRoute, b: RestRoute): number {
  return a.template.localeCompare(b.template) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method);
}

/** The slug of a domain's heading on the page, for links from the hand-written pages. */
export function domainAnchor(domain: string): string {
  return `${domain}-endpoints`;
}

/**
 * Every declared route, by domain, with the fields that call it: domain -> route name -> fields,
 * domains and routes in the page's order.
 */
export function routesByDomain(schema: GraphQLSchema, resolvers: Readonly<Record<string, unknown>>, modules: readonly ResolverModule[]): Map<string, Map<string, string[]>> {
  const domains = fieldDomains(modules);
  const found = new Map<string, Map<string, { route: RestRoute; fields: string[] }>>();
  for (const { type, field, declaration } of declaredFields(schema, resolvers)) {
    const domain = domains.get(`${type}.${field}`);
    if (domain === undefined) throw new Error(`${type}.${field} is declared but no module of src/resolvers/ resolves it`);
    const signature = fieldSignature(type, (schema.getType(type) as { getFields(): Record<string, GraphQLField<unknown, unknown>> }).getFields()[field]!);
    const routes = found.get(domain) ?? found.set(domain, new Map()).get(domain)!;
    for (const route of declaration.rest) {
      const entry = routes.get(route.name) ?? routes.set(route.name, { route, fields: [] }).get(route.name)!;
      if (!entry.fields.includes(signature)) entry.fields.push(signature);
    }
  }
  const ordered = new Map<string, Map<string, string[]>>();
  for (const domain of [...found.keys()].sort()) {
    const routes = [...found.get(domain)!.values()].sort((a, b) => byPath(a.route, b.route));
    if (routes.length > 0) ordered.set(domain, new Map(routes.map(({ route, fields }) => [route.name, fields])));
  }
  return ordered;
}

function endpointSection(schema: GraphQLSchema, resolvers: Readonly<Record<string, unknown>>, modules: readonly ResolverModule[]): string[] {
  const byDomain = routesByDomain(schema, resolvers, modules);
  const lines = [
    '## By REST endpoint',
    '',
    'Each endpoint with the GraphQL fields that call it (their arguments as the schema has them; a',
    "connection's `first`, `after`, `last` and `before` left out), by domain: the folder of",
    '`src/resolvers/` whose module resolves the field. An endpoint that fields of two domains call is',
    'listed in both. Within a domain, endpoints go by path, then GET, POST, PUT, DELETE.',
    '',
    [...byDomain.keys()].map((domain) => `[${domain}](#${domainAnchor(domain)})`).join(' · '),
  ];
  for (const [domain, routes] of byDomain) {
    lines.push('', `### ${domain} endpoints`, '', '| REST | GraphQL |', '| --- | --- |');
    for (const [route, fields] of routes) lines.push(`| \`${route}\` | ${fields.map((field) => `\`${field}\``).join(', ')} |`);
  }
  return lines;
}

function typeSection(schema: GraphQLSchema, resolvers: Readonly<Record<string, unknown>>): string[] {
  const lines = [
    '## By GraphQL type',
    '',
    'Each declared field with its endpoints and what it costs per parent object, type by type.',
  ];
  let currentType = '';
  for (const { type, field, declaration } of declaredFields(schema, resolvers)) {
    if (type !== currentType) {
      lines.push('', `### ${type}`, '', '| Field | REST | Calls per parent |', '| --- | --- | --- |');
      currentType = type;
    }
    const rest = declaration.rest.map((route) => `\`${route.name}\``).join(', ') || '—';
    lines.push(`| \`${field}\` | ${rest} | ${costText(declaration.cost)} |`);
  }
  return lines;
}

/**
 * docs/rest-fields.md: every field that declares its REST source, generated from the declarations
 * (`npm run codegen`; a test fails when it is stale), both ways: each endpoint with the fields that
 * call it, by domain, and each type's fields with their endpoints and what they cost.
 */
export function restFieldsPage(schema: GraphQLSchema, resolvers: Readonly<Record<string, unknown>>, modules: readonly ResolverModule[]): string {
  const lines = [
    '<!-- Generated by scripts/rest-fields.ts from the field declarations (src/fields/): run `npm run codegen`, never edit. -->',
    '# REST endpoints by field',
    '',
    'Each field below declares, next to its resolver, which REST v4 endpoints it calls and what that',
    'costs per parent object; the cost estimate reads the same declaration. Look up',
    '[an endpoint](#by-rest-endpoint) to find the fields it serves, or [a type](#by-graphql-type) to',
    'find what its fields call. [The REST mapping](rest-mapping.md) tells, domain by domain, what the',
    'gateway adds to REST and what it does not cover.',
    '',
    ...endpointSection(schema, resolvers, modules),
    '',
    ...typeSection(schema, resolvers),
  ];
  return lines.join('\n') + '\n';
}
