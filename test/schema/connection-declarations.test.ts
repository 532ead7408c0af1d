import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Kind, parse, print, type FieldDefinitionNode, type ObjectTypeDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import config from '../../codegen.js';
import { ConnectionDeclarationError, connectionTypesOf, expandConnectionDeclarations } from '../../src/schema/connections.js';
import { buildSchemaFromFiles, readTypeDefs, schemaFiles } from '../../src/schema/sdl.js';

const BOARD_PAIR = `"A page of boards."
type BoardConnection {
  "Total number of boards, or null when REST gives no total."
  count: Int
  "The boards of this page."
  nodes: [Board!]!
  "The boards of this page with their cursors."
  edges: [BoardEdge!]!
  "Where this page stands in the list."
  pageInfo: PageInfo!
}

"A board with its cursor."
type BoardEdge {
  "Opaque cursor of this board in the list."
  cursor: String!
  "The board."
  node: Board!
}`;

const expand = (sdl: string) => expandConnectionDeclarations(sdl, 'schema/test.graphql');

describe('@connection declarations', () => {
  it('expand in place into the Connection and Edge pair of the common shape', () => {
    const sdl = `type Board { id: ID! }\n\n"A page of boards."\ntype BoardConnection @connection(items: "boards", item: "board")\n\ntype After { id: ID! }\n`;
    expect(expand(sdl)).toBe(`type Board { id: ID! }\n\n${BOARD_PAIR}\n\ntype After { id: ID! }\n`);
  });

  it('say where a pair departs from the common wording, and keep the fields a declaration adds', () => {
    const sdl = `"A page of board lists."
type BoardListConnection @connection(items: "lists", item: "list", anItem: "a board list", count: "Total number of lists.",
  cursor: "Opaque cursor of this list.", nullableNode: true) { "Whether the board has more lists." more: Boolean }`;
    const [connection, edge] = parse(expand(sdl)).definitions as [ObjectTypeDefinitionNode, ObjectTypeDefinitionNode];
    const described = (type: ObjectTypeDefinitionNode) => type.fields!.map((field: FieldDefinitionNode) => `${field.description?.value} ${field.name.value}: ${print(field.type)}`);
    expect(described(connection)).toEqual([
      'Total number of lists. count: Int',
      'The lists of this page. nodes: [BoardList!]!',
      'The lists of this page with their cursors. edges: [BoardListEdge!]!',
      'Where this page stands in the list. pageInfo: PageInfo!',
      'Whether the board has more lists. more: Boolean',
    ]);
    expect(edge.description?.value).toBe('A board list with its cursor.');
    expect(described(edge)).toEqual(['Opaque cursor of this list. cursor: String!', 'The list. node: BoardList']);
  });

  it('drop the directive\'s own definition, so that the expanded SDL has nothing clients do not see', () => {
    expect(expand('directive @connection(items: String!) on OBJECT\n\ntype Query { a: Int }\n')).toBe('\n\ntype Query { a: Int }\n');
    expect(readTypeDefs()).not.toMatch(/@connection\(|directive @connection/);
  });

  it.each([
    ['type BoardConnection @connection(items: "boards")', 'schema/test.graphql:2: @connection on BoardConnection: missing `item`'],
    ['type BoardConnection @connection(items: "boards", item: "board", plural: "x")', 'unknown argument `plural`'],
    ['type BoardConnection @connection(items: "boards", item: 3)', 'argument `item` must be a string'],
    ['type BoardConnection @connection(items: "boards", item: "board", nullableNode: "yes")', 'argument `nullableNode` must be a boolean'],
    ['type Boards @connection(items: "boards", item: "board")', 'must be named after its node type plus `Connection`'],
    ['interface BoardConnection @connection(items: "boards", item: "board")', 'only a `type XConnection` declaration may carry it'],
  ])('refuse a malformed declaration with its file, line and problem: %s', (declaration, message) => {
    expect(() => expand(`"A page of boards."\n${declaration}\n`)).toThrow(ConnectionDeclarationError);
    expect(() => expand(`"A page of boards."\n${declaration}\n`)).toThrow(message);
  });

  it('refuse a declaration that does not parse, with its file and line', () => {
    expect(() => expand('type A { a: Int }\n\n"A page of boards."\ntype BoardConnection @connection(items: "boards", item:)\n')).toThrow(
      /^schema\/test\.graphql:3: @connection declaration does not parse: Syntax Error/,
    );
  });

  it('refuse a declaration in a form the expander does not find, rather than leave the directive to the running gateway', () => {
    expect(() => expand('"A page."\ntype FooConnection implements Bar @connection(items: "foos", item: "foo")\n')).toThrow(/schema\/test.graphql:2: @connection where no declaration can stand/);
    // Comments may name it.
    expect(expand('# Written by hand, not @connection: its edge has more.\ntype A { id: ID! }\n')).toContain('not @connection');
  });

  it('refuse a declaration without the description its Connection type needs', () => {
    expect(() => expand('type BoardConnection @connection(items: "boards", item: "board")')).toThrow(/schema\/test\.graphql:1: .*description/);
  });
});

/** Whether a hand-written pair has the common shape a declaration writes, whatever its wording. */
function hasCommonShape(connection: ObjectTypeDefinitionNode, edge: ObjectTypeDefinitionNode | undefined): boolean {
  const node = connection.name.value.replace(/Connection$/, '');
  const shape = (type: ObjectTypeDefinitionNode) => (type.fields ?? []).map((field) => `${field.name.value}: ${print(field.type)}`).join(', ');
  const commonConnection = `count: Int, nodes: [${node}!]!, edges: [${node}Edge!]!, pageInfo: PageInfo!`;
  return shape(connection) === commonConnection && edge !== undefined && [`cursor: String!, node: ${node}!`, `cursor: String!, node: ${node}`].includes(shape(edge));
}

const isDeclared = (type: ObjectTypeDefinitionNode) => type.directives?.some((directive) => directive.name.value === 'connection') ?? false;

describe('the Connection and Edge types of schema/', () => {
  it('are declared with @connection, except the odd pairs, each written by hand with a comment saying why', () => {
    for (const file of schemaFiles()) {
      const text = readFileSync(file, 'utf8');
      const definitions = parse(text).definitions.filter((definition) => definition.kind === Kind.OBJECT_TYPE_DEFINITION);
      for (const connection of definitions.filter((definition) => definition.name.value.endsWith('Connection') && !isDeclared(definition))) {
        const edge = definitions.find((definition) => definition.name.value === connection.name.value.replace(/Connection$/, 'Edge'));
        const where = `${basename(file)}: ${connection.name.value}`;
        expect(hasCommonShape(connection, edge), `${where} has the common shape: declare it with @connection`).toBe(false);
        const precedingLine = text.slice(0, connection.loc!.start).trimEnd().split('\n').at(-1) ?? '';
        expect(precedingLine, `${where} is written by hand: say why in a comment above it`).toMatch(/^# Written by hand, not @connection: \S/);
      }
    }
  });

  it('each get a Connection and an Edge mapper in codegen, over their node type\'s mapper', () => {
    const mappers = (Object.values(config.generates)[0] as { config: { mappers: Record<string, string> } }).config.mappers;
    const pairs = connectionTypesOf(buildSchemaFromFiles());
    expect(pairs.length).toBeGreaterThanOrEqual(39);
    for (const { connection, edge, node } of pairs) {
      const recordType = mappers[node]!.split('#')[1]!.split(' as ').pop();
      expect(mappers[connection]).toBe(`../connections/connection.js#Connection<${recordType}>`);
      expect(mappers[edge]).toBe(`../connections/connection.js#Edge<${recordType}>`);
    }
  });
});
