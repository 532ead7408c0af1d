import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * Project fields the short record of a `simple=true` list answers (rest-v4-api.md: "only id, URL,
 * name and path"). Only leaves: a nested connection (the project's runners, say) may reach projects
 * again, and those are answered for free only from full list records, which prime the loader.
 */
const SIMPLE_RECORD_FIELDS: ReadonlySet<string> = new Set([
  '__typename',
  'id',
  'fullPath',
  'name',
  'nameWithNamespace',
  'path',
  'webUrl',
  'httpUrlToRepo',
  'sshUrlToRepo',
]);

/** Field names of a selection set; null when a fragment is in it (working those out is not cheap). */
function fieldNames(selectionSet: SelectionSetNode | undefined): string[] | null {
  if (!selectionSet) return [];
  const names: string[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return null;
    names.push(selection.name.value);
  }
  return names;
}

/** The fields selected on the nodes of a connection (`nodes { ... }` and `edges { node { ... } }`), or null. */
export function connectionNodeFields(info: Pick<GraphQLResolveInfo, 'fieldNodes'>): string[] | null {
  const selected: string[] = [];
  for (const fieldNode of info.fieldNodes) {
    for (const selection of fieldNode.selectionSet?.selections ?? []) {
      if (selection.kind !== Kind.FIELD) return null;
      if (selection.name.value === 'nodes') {
        const names = fieldNames(selection.selectionSet);
        if (names === null) return null;
        selected.push(...names);
      } else if (selection.name.value === 'edges') {
        for (const edgeSelection of selection.selectionSet?.selections ?? []) {
          if (edgeSelection.kind !== Kind.FIELD) return null;
          if (edgeSelection.name.value !== 'node') continue;
          const names = fieldNames(edgeSelection.selectionSet);
          if (names === null) return null;
          selected.push(...names);
        }
      }
    }
  }
  return selected;
}

/**
 * Whether a project list may ask REST for the short record (`simple=true`): only when the query's
 * own selection, read without expanding fragments, asks for nothing else. Any doubt answers false,
 * which costs bandwidth, never correctness (a field the short record lacked would be fetched).
 */
export function shortRecordSuffices(info: Pick<GraphQLResolveInfo, 'fieldNodes'>): boolean {
  const fields = connectionNodeFields(info);
  return fields !== null && fields.every((name) => SIMPLE_RECORD_FIELDS.has(name));
}
