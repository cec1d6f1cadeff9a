/**
 * The sum of a metric's samples on the /metrics of the server at `baseUrl`, over all their
 * label sets (0 while it has none).
 */
export async function metricSum(baseUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}
