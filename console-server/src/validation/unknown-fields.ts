/**
 * Fields a client sent that the schema does not know. Zod's objects drop unknown keys from
 * their output, so a key of an input object that is missing from the matching output object
 * is one — found after a successful parse, for every body schema at once, without making each
 * schema (and each nested object) strict by hand. Paths are dotted, array items by index.
 */
export function findUnknownFields(input: unknown, output: unknown, path: readonly string[] = []): string[] {
  if (Array.isArray(input)) {
    // A transform that reshapes an array (dedupe) leaves nothing to compare item by item.
    if (!Array.isArray(output) || output.length !== input.length) return [];
    return input.flatMap((item, index) => findUnknownFields(item, output[index], [...path, String(index)]));
  }
  if (!isPlainObject(input) || !isPlainObject(output)) return [];
  return Object.keys(input).flatMap((key) =>
    Object.hasOwn(output, key)
      ? findUnknownFields(input[key], output[key], [...path, key])
      : [[...path, key].join('.')],
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
