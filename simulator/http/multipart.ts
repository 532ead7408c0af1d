import { grapeError } from './errors.js';
import { parseNested, type ParamHash } from './query.js';
import { UploadedFile } from './uploaded-file.js';

/**
 * A multipart/form-data body as Rack reads it: text parts become parameters (with the same
 * `a[]`/`h[k]` nesting as a form body), file parts become UploadedFile values. Parsed by the
 * WHATWG FormData reader Node ships, so no parser of our own.
 */
export async function parseMultipart(contentType: string, body: Buffer): Promise<ParamHash> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw grapeError(400, 'message body does not match declared format');
  }
  const text = new URLSearchParams();
  const files: ParamHash = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') text.append(name, value);
    else files[name] = new UploadedFile(value.name, value.type || 'application/octet-stream', Buffer.from(await value.arrayBuffer()));
  }
  return { ...parseNested(text.toString()), ...files };
}
