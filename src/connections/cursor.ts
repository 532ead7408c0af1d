import { badUserInput } from '../errors/graphql-errors.js';

/**
 * Cursors are opaque to clients but hold an absolute item offset, so `after` and `before` map to
 * REST pages of any size and paging never repeats or skips an item (DESIGN.md "Pagination").
 * The prefix versions the format and lets a foreign string be told apart from a cursor.
 */
const PREFIX = 'offset:';

export function encodeCursor(offset: number): string {
  return Buffer.from(`${PREFIX}${offset}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string, argumentName: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const digits = text.startsWith(PREFIX) ? text.slice(PREFIX.length) : '';
  const offset = /^\d{1,9}$/.test(digits) ? Number(digits) : NaN;
  if (!Number.isSafeInteger(offset)) {
    throw badUserInput(`\`${argumentName}\` is not a cursor this gateway issued.`, argumentName);
  }
  return offset;
}
