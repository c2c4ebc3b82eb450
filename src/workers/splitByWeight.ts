/**
 * Cuts items [0, n) into at most `parts` contiguous runs of about equal
 * weight, every run non-empty, given the prefix sums of their weights
 * (`cumulative[i]` = weight of items before i, n + 1 entries). How the worker
 * pools share a batch out.
 */
export function splitByWeight(cumulative: ArrayLike<number>, parts: number): Array<[number, number]> {
  const n = cumulative.length - 1;
  const total = cumulative[n];
  const runs: Array<[number, number]> = [];
  let from = 0;
  for (let part = 1; part <= parts && from < n; part++) {
    const target = (total * part) / parts;
    let to = from + 1;
    while (to < n && cumulative[to] < target) to++;
    if (part === parts) to = n;
    runs.push([from, to]);
    from = to;
  }
  return runs;
}
