import {
  Kind,
  Lexer,
  parse,
  print,
  Source,
  TokenKind,
  type ConstArgumentNode,
  type ConstDirectiveNode,
  type DefinitionNode,
  type FieldDefinitionNode,
  type GraphQLSchema,
  type ObjectTypeDefinitionNode,
  type Token,
  type TypeNode,
} from 'graphql';

/**
 * `@connection` on a fieldless `XConnection` type declares the Connection and Edge pair of node type
 * `X` in the common shape (count, nodes, edges, pageInfo; cursor, node). The declaration sits where
 * the pair is to be: the printed schema keeps the order of the SDL, so the pair cannot move to its
 * node type. Only the wording varies from pair to pair, so the declaration carries only that; the
 * directive is for the SDL's authors, and the expanded text clients and tools see has none of it.
 */
const CONNECTION_DIRECTIVE = 'connection';

/** What a declaration may say, each a description or part of one (see the directive in base.graphql). */
interface ConnectionWording {
  items: string;
  item: string;
  anItem?: string;
  count?: string;
  nodes?: string;
  edges?: string;
  cursor?: string;
  node?: string;
  nullableNode?: boolean;
}

const REQUIRED_ARGUMENTS = ['items', 'item'] as const;
const STRING_ARGUMENTS = new Set(['items', 'item', 'anItem', 'count', 'nodes', 'edges', 'cursor', 'node']);
const BOOLEAN_ARGUMENTS = new Set(['nullableNode']);

/** A declaration the expander cannot read, with the file and line that says so. */
export class ConnectionDeclarationError extends Error {
  override name = 'ConnectionDeclarationError';
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `a board`, `an issue`: good enough for the nouns so far; a declaration says `anItem` where not. */
function withArticle(item: string): string {
  return `${/^[aeio]/i.test(item) ? 'an' : 'a'} ${item}`;
}

function named(name: string): TypeNode {
  return { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: name } };
}

function nonNull(type: TypeNode): TypeNode {
  return type.kind === Kind.NON_NULL_TYPE ? type : { kind: Kind.NON_NULL_TYPE, type };
}

function listOf(type: TypeNode): TypeNode {
  return { kind: Kind.LIST_TYPE, type };
}

function field(name: string, type: TypeNode, description: string): FieldDefinitionNode {
  return {
    kind: Kind.FIELD_DEFINITION,
    name: { kind: Kind.NAME, value: name },
    type,
    description: { kind: Kind.STRING, value: description, block: false },
  };
}

function objectType(name: string, description: string, fields: readonly FieldDefinitionNode[]): ObjectTypeDefinitionNode {
  return {
    kind: Kind.OBJECT_TYPE_DEFINITION,
    name: { kind: Kind.NAME, value: name },
    description: { kind: Kind.STRING, value: description, block: false },
    fields,
  };
}

/** The pair a declaration stands for, as type definitions, in the order the SDL has always had them. */
function connectionPair(
  connection: string,
  description: string,
  wording: ConnectionWording,
  extraFields: readonly FieldDefinitionNode[] = [],
): [ObjectTypeDefinitionNode, ObjectTypeDefinitionNode] {
  const node = connection.replace(/Connection$/, '');
  const edge = `${node}Edge`;
  const { items, item } = wording;
  const connectionType = objectType(connection, description, [
    field('count', named('Int'), wording.count ?? `Total number of ${items}, or null when REST gives no total.`),
    field('nodes', nonNull(listOf(nonNull(named(node)))), wording.nodes ?? `The ${items} of this page.`),
    field('edges', nonNull(listOf(nonNull(named(edge)))), wording.edges ?? `The ${items} of this page with their cursors.`),
    field('pageInfo', nonNull(named('PageInfo')), 'Where this page stands in the list.'),
    ...extraFields,
  ]);
  const edgeType = objectType(edge, `${capitalized(wording.anItem ?? withArticle(item))} with its cursor.`, [
    field('cursor', nonNull(named('String')), wording.cursor ?? `Opaque cursor of this ${item} in the list.`),
    field('node', wording.nullableNode ? named(node) : nonNull(named(node)), wording.node ?? `The ${item}.`),
  ]);
  return [connectionType, edgeType];
}

function argumentValue(argument: ConstArgumentNode, fail: (problem: string) => never): string | boolean {
  const name = argument.name.value;
  if (STRING_ARGUMENTS.has(name) && argument.value.kind === Kind.STRING) return argument.value.value;
  if (BOOLEAN_ARGUMENTS.has(name) && argument.value.kind === Kind.BOOLEAN) return argument.value.value;
  if (!STRING_ARGUMENTS.has(name) && !BOOLEAN_ARGUMENTS.has(name)) fail(`unknown argument \`${name}\``);
  return fail(`argument \`${name}\` must be a ${STRING_ARGUMENTS.has(name) ? 'string' : 'boolean'}`);
}

/** The directive's arguments, checked: the expander runs before any schema validation would. */
function wordingOf(directive: ConstDirectiveNode, fail: (problem: string) => never): ConnectionWording {
  const values: Record<string, string | boolean> = {};
  for (const argument of directive.arguments ?? []) values[argument.name.value] = argumentValue(argument, fail);
  const missing = REQUIRED_ARGUMENTS.filter((name) => values[name] === undefined);
  if (missing.length > 0) fail(`missing ${missing.map((name) => `\`${name}\``).join(' and ')}`);
  return values as unknown as ConnectionWording;
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

function connectionDirectiveOf(definition: DefinitionNode): ConstDirectiveNode | undefined {
  // Operations and fragments carry directives too, but never a declaration.
  if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) return undefined;
  if (!('directives' in definition)) return undefined;
  return definition.directives?.find((directive) => directive.name.value === CONNECTION_DIRECTIVE);
}

/** The pair a declaration expands to, as SDL text; or a ConnectionDeclarationError naming its line. */
function expandDeclaration(definition: DefinitionNode, fail: (problem: string, offset?: number) => never): string {
  const directive = connectionDirectiveOf(definition);
  if (!directive) return fail(`no @${CONNECTION_DIRECTIVE} on the declaration`);
  const failHere = (problem: string): never => fail(problem, directive.loc?.start);
  if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) return failHere('only a `type XConnection` declaration may carry it');
  if (!definition.name.value.endsWith('Connection') || definition.name.value === 'Connection') {
    return failHere('the declared type must be named after its node type plus `Connection` (`BoardConnection`)');
  }
  if (!definition.description) return failHere("the declaration's description is the Connection type's and is required");
  const wording = wordingOf(directive, failHere);
  const pair = connectionPair(definition.name.value, definition.description.value, wording, definition.fields ?? []);
  return pair.map((type) => print(type)).join('\n\n');
}

/**
 * Where the definition whose keyword is at `keywordAt` starts: at its description when it has one (a
 * string can stand right before a definition's keyword only as its description).
 */
function definitionStart(text: string, keywordAt: number): number {
  const before = text.slice(0, keywordAt).trimEnd();
  if (before.endsWith('"""')) return before.lastIndexOf('"""', before.length - 4);
  if (before.endsWith('"')) return before.indexOf('"', before.lastIndexOf('\n') + 1);
  return keywordAt;
}

/** The last token of a directive definition's `[repeatable] on A | B`, the lexer standing before it. */
function lastLocation(lexer: Lexer): Token {
  if (lexer.lookahead().value === 'repeatable') lexer.advance();
  lexer.advance();
  let location = lexer.advance();
  while (lexer.lookahead().kind === TokenKind.PIPE) {
    lexer.advance();
    location = lexer.advance();
  }
  return location;
}

/**
 * Where a declaration or the directive's definition that starts at `start` ends: its tokens up to the
 * parenthesis that closes its arguments, then a declaration's `{ ... }` or the directive's `on A | B`.
 */
function definitionEnd(text: string, start: number): number {
  const lexer = new Lexer(new Source(text.slice(start)));
  let depth = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    if (token.kind === TokenKind.PAREN_L || token.kind === TokenKind.BRACE_L) depth += 1;
    if (token.kind !== TokenKind.PAREN_R && token.kind !== TokenKind.BRACE_R) continue;
    depth -= 1;
    if (depth > 0 || (token.kind === TokenKind.PAREN_R && lexer.lookahead().kind === TokenKind.BRACE_L)) continue;
    if (token.kind === TokenKind.PAREN_R && ['on', 'repeatable'].includes(lexer.lookahead().value ?? '')) token = lastLocation(lexer);
    return start + token.end;
  }
  return text.length;
}

/**
 * The head of a declaration (`type BoardConnection @connection`, or a misplaced one: `interface X
 * @connection`) or of the directive's definition: what the expander replaces, found without parsing
 * the file.
 */
const DECLARATION = new RegExp(`^(?:(?:extend\\s+)?[a-z]+\\s+\\w+|directive)\\s+@${CONNECTION_DIRECTIVE}\\b`, 'gm');

/** The one definition of text[start, end), or a ConnectionDeclarationError naming the file's line. */
function parseDeclaration(text: string, start: number, end: number, source: string): DefinitionNode {
  try {
    return parse(text.slice(start, end)).definitions[0]!;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConnectionDeclarationError(`${source}:${lineOf(text, start)}: @${CONNECTION_DIRECTIVE} declaration does not parse: ${message}`);
  }
}

/**
 * One SDL file's text with each `@connection` declaration replaced by its pair and the directive's
 * own definition removed, the rest left as written. `source` names the file in errors. Only the
 * declarations are parsed: the gateway parses the whole SDL once at start anyway (sdl.ts), and parsing
 * every file a second time here, with locations, added some 2 MB of garbage and 30 ms to each start.
 */
export function expandConnectionDeclarations(text: string, source: string): string {
  let expanded = '';
  let copiedUpTo = 0;
  for (const match of text.matchAll(DECLARATION)) {
    const start = definitionStart(text, match.index);
    const end = definitionEnd(text, start);
    const definition = parseDeclaration(text, start, end, source);
    const fail = (problem: string, offset = 0): never => {
      const line = lineOf(text, start) + lineOf(text.slice(start), offset) - 1;
      const name = 'name' in definition && definition.name ? definition.name.value : definition.kind;
      throw new ConnectionDeclarationError(`${source}:${line}: @${CONNECTION_DIRECTIVE} on ${name}: ${problem}`);
    };
    const isDirectiveDefinition = definition.kind === Kind.DIRECTIVE_DEFINITION;
    expanded += text.slice(copiedUpTo, start) + (isDirectiveDefinition ? '' : expandDeclaration(definition, fail));
    copiedUpTo = end;
  }
  expanded += text.slice(copiedUpTo);
  // A declaration in a form the head pattern does not know (`type X implements Y @connection`)
  // would reach the running gateway as an unknown directive, which it builds with assumeValidSDL:
  // refuse it here instead, where every reader of the SDL passes.
  const missed = /^[^#\n]*@connection\b/m.exec(expanded);
  if (missed) {
    throw new ConnectionDeclarationError(`${source}:${lineOf(expanded, missed.index)}: @${CONNECTION_DIRECTIVE} where no declaration can stand: write it as \`type XConnection @${CONNECTION_DIRECTIVE}(...)\` at the start of a line`);
  }
  return expanded;
}

/** A Connection type of the schema, its Edge, and the node type both carry. */
export interface ConnectionTypes {
  connection: string;
  edge: string;
  node: string;
}

/**
 * Every `XConnection` of the schema whose `XEdge` exists, declared or written by hand: what codegen
 * maps to the one Connection and Edge record of src/connections/.
 */
export function connectionTypesOf(schema: GraphQLSchema): ConnectionTypes[] {
  return Object.keys(schema.getTypeMap())
    .filter((name) => name.endsWith('Connection') && name !== 'Connection')
    .map((connection) => {
      const node = connection.replace(/Connection$/, '');
      return { connection, edge: `${node}Edge`, node };
    })
    .filter(({ edge, node }) => schema.getType(edge) !== undefined && schema.getType(node) !== undefined);
}
