// Reading a query's selection below a field, fragments included, to fetch only what it asks for.
import { Kind, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** Whether the operation selects a field of this name anywhere below the field being resolved (fragments included). */
export function selectsField(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, name: string): boolean {
  const seen = new Set<string>();
  const within = (selectionSet: SelectionSetNode | undefined): boolean =>
    (selectionSet?.selections ?? []).some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === name || within(selection.selectionSet);
      if (selection.kind === Kind.INLINE_FRAGMENT) return within(selection.selectionSet);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      const fragment: FragmentDefinitionNode | undefined = info.fragments[selection.name.value];
      return within(fragment?.selectionSet);
    });
  return info.fieldNodes.some((fieldNode) => within(fieldNode.selectionSet));
}

