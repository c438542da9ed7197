/** A custom tool's text, from the canonical `{"input": …}` arguments. */
export function customInput(args: string): string {
  try {
    const value = JSON.parse(args) as { input?: unknown };
    if (typeof value.input === 'string') return value.input;
  } catch {
    // Not the canonical shape: the vendor's arguments are the text itself.
  }
  return args;
}
