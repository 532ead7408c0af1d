// GitLab's `webPath` fields: the path of a record's page on the instance, which is its REST
// `web_url` without the origin (`https://gitlab.example.com/group/project/-/issues/1` ->
// `/group/project/-/issues/1`). A relative URL root (GitLab under `/gitlab`) stays in the path, as
// GitLab's own `webPath` keeps it.

/** The path (with query and fragment, if any) of a REST `web_url`; null when there is none. */
export function pathOfWebUrl(webUrl: string | null | undefined): string | null {
  if (typeof webUrl !== 'string' || webUrl === '') return null;
  if (!URL.canParse(webUrl)) return null;
  const url = new URL(webUrl);
  return `${url.pathname}${url.search}${url.hash}`;
}
