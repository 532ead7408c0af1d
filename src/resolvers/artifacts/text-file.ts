import type { Readable } from 'node:stream';
import { readWithin } from '../../datasources/rest-client.js';
import { badUserInput } from '../../errors/graphql-errors.js';

/** The largest `maxBytes` a caller may ask for: bigger files are downloads, not fields. */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;

export function checkMaxBytes(maxBytes: number): number {
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_TEXT_FILE_BYTES) {
    throw badUserInput(`\`maxBytes\` must be between 1 and ${MAX_TEXT_FILE_BYTES}; got ${maxBytes}.`, 'maxBytes');
  }
  return maxBytes;
}

function tooLarge(path: string, maxBytes: number, downloadPath: string) {
  return badUserInput(`"${path}" is larger than ${maxBytes} bytes; download it from ${downloadPath} instead.`, 'maxBytes');
}

/**
 * Reads a file of at most `maxBytes` from a REST stream and decodes it as UTF-8. A file announced
 * or found larger is refused without reading the rest (the stream is abandoned), so a field never
 * holds more than the limit in memory.
 */
export async function readTextFile(
  body: Readable,
  declaredLength: string | undefined,
  path: string,
  maxBytes: number,
  downloadPath: string,
): Promise<string> {
  const bytes = await readWithin(body, declaredLength, maxBytes);
  if (!bytes) throw tooLarge(path, maxBytes, downloadPath);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badUserInput(`"${path}" is not UTF-8 text; download it from ${downloadPath} instead.`, 'path');
  }
}
