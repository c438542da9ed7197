/** `%needle%` for ILIKE, with the pattern characters of the needle taken literally. */
export function containsPattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
