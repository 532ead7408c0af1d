import type { Readable } from 'node:stream';
import { abandonBody } from '../../datasources/rest-client.js';
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
  if (declaredLength && Number(declaredLength) > maxBytes) {
    abandonBody(body);
    throw tooLarge(path, maxBytes, downloadPath);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      abandonBody(body);
      throw tooLarge(path, maxBytes, downloadPath);
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw badUserInput(`"${path}" is not UTF-8 text; download it from ${downloadPath} instead.`, 'path');
  }
}
