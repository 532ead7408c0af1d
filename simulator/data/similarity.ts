// `order_by=similarity` (rest-v4-api.md "Groups"): GitLab ranks with PostgreSQL's pg_trgm
// `similarity()` over path, name and description, weighted 1, 0.7 and 0.2
// (Gitlab::Database::SimilarityScore). This is the same trigram measure, in memory.

/** pg_trgm's trigrams: per alphanumeric word, lower-cased and padded with two spaces before and one after. */
function trigrams(text: string): Set<string> {
  const result = new Set<string>();
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) result.add(padded.slice(i, i + 3));
  }
  return result;
}

/** pg_trgm `similarity(a, b)`: shared trigrams over all distinct trigrams, 0 to 1. */
export function trigramSimilarity(a: string, b: string): number {
  const left = trigrams(a);
  const right = trigrams(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const gram of left) if (right.has(gram)) shared++;
  return shared / (left.size + right.size - shared);
}

/** The score GitLab orders by, highest first. */
export function similarityScore(search: string, record: { path: string; name: string; description: string | null }): number {
  return (
    trigramSimilarity(record.path, search) +
    0.7 * trigramSimilarity(record.name, search) +
    0.2 * trigramSimilarity(record.description ?? '', search)
  );
}
