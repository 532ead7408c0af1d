import { badUserInput } from '../../errors/graphql-errors.js';
import { parseGlobalId } from '../global-id.js';

const SNIPPET_CLASSES = new Set(['PersonalSnippet', 'ProjectSnippet']);

/** The numeric id of a personal or project snippet's global ID; REST's `/snippets/:id` takes either. */
export function snippetIdFromGlobalId(value: string, argumentName: string): number {
  const { className, id } = parseGlobalId(value, argumentName);
  if (!SNIPPET_CLASSES.has(className)) {
    throw badUserInput(`\`${argumentName}\` must be a PersonalSnippet or ProjectSnippet global ID; got a ${className} ID.`, argumentName);
  }
  return id;
}
