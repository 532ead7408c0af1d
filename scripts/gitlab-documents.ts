// Validates GitLab's own web-frontend GraphQL documents against this gateway's schema, the measure
// of issue 18 ("a client written for GitLab runs unmodified"): how many of the documents that
// GitLab's pages send for the domains the gateway covers validate here, by domain, and what breaks
// the others, ranked by the number of documents each cause breaks.
//
//   npm run gitlab-documents -- /path/to/a/gitlab/checkout [--each]
//
// The documents are GitLab's (MIT-licensed CE code) and stay in a GitLab checkout: the repository
// holds no copy of them (issue 18: write your own tests in their style, do not copy them).
// Apollo strips what never reaches a server before sending a document, and so does this script:
// `@client` fields (local state), and the directives `@connection` and `@gl_introduced`. A
// document whose every field is `@client` is not counted.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { buildSchema, Kind, parse, validate, visit, type ASTNode, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';

/** The folders of GitLab's frontend whose documents ask for the domains the gateway covers. */
const DOMAINS: ReadonlyArray<readonly [domain: string, folder: string]> = [
  ['runners', 'app/assets/javascripts/ci/runner/graphql'],
  ['boards', 'app/assets/javascripts/boards/graphql'],
  ['issue sidebar', 'app/assets/javascripts/sidebar/queries'],
  ['commits and tree', 'app/assets/javascripts/repository/queries'],
  ['commits and tree', 'app/assets/javascripts/projects/commit_box'],
  ['commits and tree', 'app/assets/javascripts/projects/commits'],
  ['wikis', 'app/assets/javascripts/wikis'],
  ['job artifacts', 'app/assets/javascripts/ci/artifacts/graphql'],
  ['groups and projects', 'app/assets/javascripts/organizations/shared/graphql'],
  ['groups and projects', 'app/assets/javascripts/groups'],
  ['groups and projects', 'app/assets/javascripts/projects/your_work'],
  ['groups and projects', 'app/assets/javascripts/groups_projects'],
];
const CLIENT_ONLY_DIRECTIVES = new Set(['connection', 'gl_introduced']);

type Outcome = { path: string; domain: string; status: 'valid' | 'fails' | 'client-only' | 'unresolved'; causes: string[] };

function graphqlFiles(root: string, folder: string): string[] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.graphql') && statSync(join(dir, name)).isFile())
    .map((name) => posix.join(folder, name.split('\\').join('/')))
    .sort();
}

/** Where GitLab's webpack aliases point: `~/` and `ee_else_ce/` at the CE sources, `ee/` at EE's. */
function importedPath(from: string, target: string): string {
  if (target.startsWith('~/')) return `app/assets/javascripts/${target.slice(2)}`;
  if (target.startsWith('ee_else_ce/')) return `app/assets/javascripts/${target.slice('ee_else_ce/'.length)}`;
  if (target.startsWith('ee/')) return `ee/app/assets/javascripts/${target.slice(3)}`;
  return posix.normalize(posix.join(posix.dirname(from), target));
}

/** The fragments a document's `#import` lines bring, followed through the files they import; null when one is missing. */
function importedFragments(root: string, path: string, seen = new Set<string>([path])): FragmentDefinitionNode[] | null {
  const fragments: FragmentDefinitionNode[] = [];
  for (const [, target] of readFileSync(join(root, path), 'utf8').matchAll(/^#import\s+"([^"]+)"/gm)) {
    const file = importedPath(path, target!);
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(join(root, file))) return null;
    for (const definition of parse(readFileSync(join(root, file), 'utf8')).definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.push(definition);
    }
    const deeper = importedFragments(root, file, seen);
    if (deeper === null) return null;
    fragments.push(...deeper);
  }
  return fragments;
}

const isClient = (node: { directives?: readonly { name: { value: string } }[] }) => node.directives?.some((directive) => directive.name.value === 'client') ?? false;

/** The document as Apollo sends it: no `@client` selections, no client-only directives, nothing left empty or unused. */
function asSent(document: DocumentNode): DocumentNode {
  const dropClient = (node: ASTNode) => (isClient(node as never) ? null : undefined);
  let sent = visit(document, {
    Field: dropClient,
    FragmentSpread: dropClient,
    InlineFragment: dropClient,
    Directive: (node) => (CLIENT_ONLY_DIRECTIVES.has(node.name.value) ? null : undefined),
  });
  // Emptied selections, then the fragments they emptied and their spreads, until nothing changes.
  for (;;) {
    const empty = new Set(sent.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.selectionSet.selections.length === 0).map((d) => d.name.value));
    const pruned = visit(sent, {
      Field: { leave: (node) => (node.selectionSet?.selections.length === 0 ? null : undefined) },
      InlineFragment: { leave: (node) => (node.selectionSet.selections.length === 0 ? null : undefined) },
      FragmentSpread: (node) => (empty.has(node.name.value) ? null : undefined),
      FragmentDefinition: (node) => (empty.has(node.name.value) ? null : undefined),
    });
    if (pruned === sent) break; // visit hands back the same node when it changed nothing
    sent = pruned;
  }
  // Variables only removed fields used.
  const used = new Set<string>();
  visit(sent, { Variable: (node) => void used.add(node.name.value) });
  return visit(sent, { VariableDefinition: (node) => (used.has(node.variable.name.value) ? undefined : null) });
}

/** A validation message without its suggestions, so that one cause reads the same in every document. */
function causeOf(message: string): string {
  return message
    .replace(/\s*Did you mean .*$/s, '')
    .replace(/^Variable "\$[^"]+" of type/, 'Variable of type')
    .replace(/\.$/, '');
}

function measure(root: string, schemaText: string): Outcome[] {
  const schema = buildSchema(schemaText);
  const outcomes: Outcome[] = [];
  for (const [domain, folder] of DOMAINS) {
    for (const path of graphqlFiles(root, folder)) {
      const own = parse(readFileSync(join(root, path), 'utf8'));
      const operations = own.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
      if (operations.length === 0 || own.definitions.some((d) => d.kind !== Kind.OPERATION_DEFINITION && d.kind !== Kind.FRAGMENT_DEFINITION)) continue;
      const imported = importedFragments(root, path);
      if (imported === null) {
        outcomes.push({ path, domain, status: 'unresolved', causes: ['an imported file is missing'] });
        continue;
      }
      const local = own.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION);
      const localNames = new Set(local.map((d) => d.name.value));
      const byName = new Map([...imported.filter((d) => !localNames.has(d.name.value)), ...local].map((d) => [d.name.value, d]));
      const sent = asSent({ kind: Kind.DOCUMENT, definitions: [...operations, ...reachable(operations, byName)] });
      if (sent.definitions.every((d) => d.kind !== Kind.OPERATION_DEFINITION || d.selectionSet.selections.length === 0)) {
        outcomes.push({ path, domain, status: 'client-only', causes: [] });
        continue;
      }
      const causes = [...new Set(validate(schema, sent).map((error) => causeOf(error.message)))];
      outcomes.push({ path, domain, status: causes.length === 0 ? 'valid' : 'fails', causes });
    }
  }
  return outcomes;
}

/** The fragments the operations spread, directly or through other fragments. */
function reachable(operations: OperationDefinitionNode[], byName: Map<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const found = new Map<string, FragmentDefinitionNode>();
  const pending: ASTNode[] = [...operations];
  while (pending.length > 0) {
    visit(pending.pop()!, {
      FragmentSpread(node) {
        const fragment = byName.get(node.name.value);
        if (fragment && !found.has(node.name.value)) {
          found.set(node.name.value, fragment);
          pending.push(fragment);
        }
      },
    });
  }
  return [...found.values()];
}

function report(outcomes: Outcome[], each: boolean): void {
  const served = outcomes.filter((o) => o.status === 'valid' || o.status === 'fails');
  const valid = served.filter((o) => o.status === 'valid').length;
  const share = (part: number, whole: number) => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(0)}%`);
  console.log(`${valid} of ${served.length} documents validate unmodified (${share(valid, served.length)}); ${outcomes.filter((o) => o.status === 'client-only').length} client-only and ${outcomes.filter((o) => o.status === 'unresolved').length} with a missing import not counted.\n`);
  for (const domain of new Set(served.map((o) => o.domain))) {
    const ofDomain = served.filter((o) => o.domain === domain);
    const validHere = ofDomain.filter((o) => o.status === 'valid').length;
    console.log(`  ${domain.padEnd(22)} ${String(validHere).padStart(3)} of ${String(ofDomain.length).padStart(3)}  ${share(validHere, ofDomain.length)}`);
  }
  const documentsByCause = new Map<string, string[]>();
  for (const outcome of served) for (const cause of outcome.causes) documentsByCause.set(cause, [...(documentsByCause.get(cause) ?? []), outcome.path]);
  console.log('\nCauses, by the number of documents each breaks:');
  for (const [cause, paths] of [...documentsByCause].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))) {
    console.log(`  ${String(paths.length).padStart(3)}  ${cause}`);
  }
  if (!each) return;
  console.log('\nEach document that fails:');
  for (const outcome of served.filter((o) => o.status === 'fails')) console.log(`  ${outcome.path}\n${outcome.causes.map((cause) => `      ${cause}`).join('\n')}`);
}

const [root, ...flags] = process.argv.slice(2);
if (!root || !existsSync(join(root, 'app/assets/javascripts'))) {
  console.error('Usage: npm run gitlab-documents -- <a checkout of GitLab\'s source (gitlab-org/gitlab or gitlab-foss)> [--each]');
  process.exit(2);
}
const schemaFile = join(import.meta.dirname, '..', 'schema.graphql');
console.log(`GitLab's frontend documents in ${relative(process.cwd(), root) || '.'} against ${relative(process.cwd(), schemaFile)}\n`);
report(measure(root, readFileSync(schemaFile, 'utf8')), flags.includes('--each'));
