import { badUserInput } from '../../errors/graphql-errors.js';

/**
 * A wiki slug as an argument: any text but a blank one. It reaches REST as one URL-encoded path
 * segment (restPath), so `/`, `.` and `..` in it stay inside the wiki route.
 */
export function checkSlug(slug: string, argumentName = 'slug'): string {
  if (!slug.trim())
    throw badUserInput(`\`${argumentName}\` must name a wiki page, such as \`home\` or \`docs/Getting-started\`.`, argumentName);
  return slug;
}
