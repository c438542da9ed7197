/**
 * OpenAI's `encoding_format: "base64"` for embeddings: a vector's float32 values, little-endian,
 * as base64 — what the official SDKs decode.
 */
export function float32ToBase64(vector: readonly number[]): string {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  vector.forEach((value, i) => {
    view.setFloat32(i * 4, value, true);
  });
  // In slices: String.fromCharCode takes its bytes as arguments, and arguments are bounded.
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The vector back; undefined when the text is not base64 of whole float32 values. */
export function base64ToFloat32(text: string): number[] | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  if (binary.length === 0 || binary.length % 4 !== 0) return undefined;
  const view = new DataView(Uint8Array.from(binary, (char) => char.charCodeAt(0)).buffer);
  return Array.from({ length: binary.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
}
