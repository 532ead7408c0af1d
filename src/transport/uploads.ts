import { FileUpload } from '../datasources/file-upload.js';

export { FileUpload };

/** Default largest upload, in bytes, across the files of one request (`UPLOAD_MAX_BYTES`). */
export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * A file as a request's variables hold it. graphql-js writes a value it cannot coerce into its
 * error message, every enumerable property included, and a Uint8Array's are its bytes: a 1 MB file
 * mapped to a String argument made a 24 MB error and held the event loop for 3.5 s (a 10 MiB one,
 * the default limit, for minutes). graphql-js's `inspect` and JSON.stringify read `toJSON`
 * instead, which names the file by its name, type and size, never its contents.
 */
class ReceivedFile extends FileUpload {
  toJSON(): { filename: string; mimeType: string; size: number } {
    return { filename: this.filename, mimeType: this.mimeType, size: this.size };
  }
}

/** Why a multipart request was refused, with the HTTP status to answer. */
export class UploadRequestError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRequestError';
  }
}

/** The operation of a multipart request, with its files placed where its `map` said. */
export interface MultipartOperation {
  query?: unknown;
  variables?: Record<string, unknown>;
  operationName?: unknown;
  extensions?: unknown;
}

function parseJsonField(form: FormData, name: string): unknown {
  const value = form.get(name);
  if (typeof value !== 'string') throw new UploadRequestError(400, `The multipart request has no \`${name}\` field (GraphQL multipart request spec).`);
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw new UploadRequestError(400, `The \`${name}\` field of the multipart request is not valid JSON.`);
  }
}

/** Puts `value` at a `variables.a.0.b` path of the operation; only paths inside `variables` are allowed. */
function place(operation: MultipartOperation, path: string, value: FileUpload): void {
  const keys = path.split('.');
  if (keys[0] !== 'variables' || keys.length < 2 || keys.some((key) => key === '__proto__' || key === 'constructor' || key === 'prototype')) {
    throw new UploadRequestError(400, `The map path "${path}" does not point into the operation's variables.`);
  }
  let target: Record<string, unknown> = (operation.variables ??= {});
  for (const key of keys.slice(1, -1)) {
    const next = target[key];
    if (!next || typeof next !== 'object') throw new UploadRequestError(400, `The map path "${path}" does not exist in the variables.`);
    target = next as Record<string, unknown>;
  }
  target[keys[keys.length - 1]!] = value;
}

/**
 * Reads a request of the GraphQL multipart request spec
 * (https://github.com/jaydenseric/graphql-multipart-request-spec): an `operations` JSON field, a
 * `map` JSON field from file field names to variable paths, and the files. Batched operations
 * are not accepted. Each file must fit in `maxBytes`.
 */
export async function readMultipartOperation(contentType: string, body: Buffer, maxBytes: number): Promise<MultipartOperation> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw new UploadRequestError(400, 'The multipart body could not be read.');
  }
  const operations = parseJsonField(form, 'operations');
  if (!operations || typeof operations !== 'object' || Array.isArray(operations)) {
    throw new UploadRequestError(400, '`operations` must be one GraphQL operation; batches are not accepted.');
  }
  const operation = operations as MultipartOperation;
  const map = parseJsonField(form, 'map');
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new UploadRequestError(400, '`map` must be an object of file field names to variable paths.');
  for (const [field, paths] of Object.entries(map as Record<string, unknown>)) {
    const file = form.get(field);
    if (!file || typeof file === 'string') throw new UploadRequestError(400, `The map names a file field "${field}" that the request does not carry.`);
    if (file.size > maxBytes) throw new UploadRequestError(413, `The file "${file.name}" is larger than the upload limit of ${maxBytes} bytes.`);
    const upload = new ReceivedFile(file.name, file.type || 'application/octet-stream', new Uint8Array(await file.arrayBuffer()));
    if (!Array.isArray(paths) || paths.length === 0) throw new UploadRequestError(400, `The map entry "${field}" must list variable paths.`);
    for (const path of paths) {
      if (typeof path !== 'string') throw new UploadRequestError(400, `The map entry "${field}" must list variable paths.`);
      place(operation, path, upload);
    }
  }
  return operation;
}
