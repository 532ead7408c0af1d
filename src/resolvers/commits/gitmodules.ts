// `.gitmodules` as GitLab reads it (Gitlab::Git::GitmodulesParser): each `[submodule "name"]`
// section's `path` and `url`, keyed by path, since a tree entry knows its path and not its name.

/** Submodule URLs by the submodule's path, from the text of a `.gitmodules` file. */
export function gitmodulesUrls(text: string): Map<string, string> {
  const urls = new Map<string, string>();
  let section: { path?: string; url?: string } | null = null;
  const finish = () => {
    if (section?.path !== undefined && section.url !== undefined) urls.set(section.path, section.url);
  };
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      finish();
      section = /^\[submodule\s+"[^"]*"\]$/.test(line) ? {} : null;
      continue;
    }
    const setting = /^(\w+)\s*=\s*(.*)$/.exec(line);
    if (!section || !setting) continue;
    const value = setting[2]!.replace(/^"(.*)"$/, '$1');
    if (setting[1] === 'path') section.path = value;
    if (setting[1] === 'url') section.url = value;
  }
  finish();
  return urls;
}
