/** A GraphQL multipart request body (GraphQL multipart request spec): operations, map, files. */
export function multipartForm(operation: unknown, map: unknown, files: Record<string, File>): FormData {
  const form = new FormData();
  form.append('operations', JSON.stringify(operation));
  form.append('map', JSON.stringify(map));
  for (const [field, file] of Object.entries(files)) form.append(field, file, file.name);
  return form;
}

/**
 * Sends one operation with files, as upload clients do: each key of `files` is a variable path
 * (`file`, `input.file`) that becomes null in `operations` and is mapped to its file part.
 */
export function postUpload(url: string, query: string, variables: Record<string, unknown>, files: Record<string, File>, token?: string): Promise<Response> {
  const operationVariables = structuredClone(variables);
  const map: Record<string, string[]> = {};
  Object.keys(files).forEach((path, index) => {
    const keys = path.split('.');
    let target = operationVariables;
    for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Record<string, unknown>;
    target[keys[keys.length - 1]!] = null;
    map[String(index)] = [`variables.${path}`];
  });
  const parts = Object.fromEntries(Object.values(files).map((file, index) => [String(index), file]));
  return fetch(url, {
    method: 'POST',
    headers: { 'apollo-require-preflight': 'true', ...(token ? { 'private-token': token } : {}) },
    body: multipartForm({ query, variables: operationVariables }, map, parts),
  });
}
