// A gateway's GET /metrics as a deployment's Prometheus would read it: the bench reads the
// subscription gauges and the REST-call counter of each gateway replica there, from outside.

/** The gateway's /metrics (Prometheus text format), next to its GraphQL endpoint `graphqlUrl`. */
export async function scrapeMetrics(graphqlUrl: string): Promise<string> {
  const response = await fetch(new URL('/metrics', graphqlUrl));
  const text = await response.text();
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}: ${text.slice(0, 200)}`);
  return text;
}

/**
 * The sum of the samples of metric `name` whose labels include every one of `labels` (all of its
 * samples when none are given); 0 when there are none.
 */
export function sampleSum(exposition: string, name: string, labels: Record<string, string> = {}): number {
  const pairs = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  let total = 0;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    const labelText = rest.startsWith('{') ? rest.slice(1, rest.lastIndexOf('}')) : rest.startsWith(' ') ? '' : undefined;
    if (labelText === undefined) continue; // another metric whose name starts with this one
    const own = labelText.split(/,(?=\w+=")/);
    if (pairs.every((pair) => own.includes(pair))) total += Number(rest.slice(rest.lastIndexOf(' ') + 1));
  }
  return total;
}
