/**
 * The one line of `key=value` figures a bench child prints after its tag (wrk's BENCH_RESULT,
 * the machine check's MACHINE): a reader of each figure, which throws naming what is missing.
 */
export function resultLine(output: string, tag: string, what: string): (key: string) => number {
  const line = output.split('\n').find((l) => l.startsWith(`${tag} `));
  if (!line) throw new Error(`${what} printed no ${tag} line:\n${output.slice(-2000)}`);
  const values = new Map<string, number>();
  for (const pair of line
    .slice(tag.length + 1)
    .trim()
    .split(' ')) {
    const [key, value] = pair.split('=');
    values.set(key!, Number(value));
  }
  return (key) => {
    const value = values.get(key);
    if (value === undefined || Number.isNaN(value)) throw new Error(`${tag} without ${key}: ${line}`);
    return value;
  };
}
