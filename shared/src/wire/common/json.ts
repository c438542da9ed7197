/**
 * Tool arguments are JSON text in the canonical model (vendors stream them as text); formats
 * that carry an object need it parsed. Anything that is not a JSON object becomes `{}` rather
 * than failing a response the model already produced.
 */
export function parseArgumentsObject(args: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
