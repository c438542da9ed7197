/** Image sources given as URLs, for vendors that need inline bytes or a mime type. */

export interface InlineImage {
  mediaType: string;
  /** Base64, as it appeared in the data URL. */
  data: string;
}

/** `data:image/png;base64,AAAA` → {mediaType, data}; undefined for anything else. */
export function parseImageDataUrl(url: string): InlineImage | undefined {
  const match = /^data:([^;,]+)(?:;[^;,]*)*;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1]!.toLowerCase(), data: match[2]! };
}

const MIME_BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

/** A mime type guessed from the URL path's extension; JPEG (the commonest) when it says nothing. */
export function guessImageMimeType(url: string): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // Not an absolute URL: read the extension from the text as is.
  }
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return MIME_BY_EXTENSION[extension] ?? 'image/jpeg';
}
