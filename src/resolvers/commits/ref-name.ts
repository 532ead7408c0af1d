// Gitlab::GitRefValidator.validate, which GitLab's BlobsResolver applies to its `ref`: a name that
// is not already qualified (`refs/heads/`, `refs/remotes/`, `refs/tags/`), does not start with
// `-`, and is a valid branch name by git's check-ref-format rules.

const QUALIFIED_PREFIXES = ['refs/heads/', 'refs/remotes/', 'refs/tags/', '-'];

/** git check-ref-format: what no part of a ref name may hold. */
const FORBIDDEN = /[\u0000-\u0020\u007f~^:?*[\\]|\.\.|@\{|\/\/|\/\.|^\.|^\/|\/$|\.$|\.lock$|\.lock\//;

export function isValidRefName(ref: string): boolean {
  if (ref === '' || ref === '@') return false;
  if (QUALIFIED_PREFIXES.some((prefix) => ref.startsWith(prefix))) return false;
  return !FORBIDDEN.test(ref);
}
