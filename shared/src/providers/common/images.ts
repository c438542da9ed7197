/** Image sources as vendors need them: inline bytes with a media type, or a URL with a guessed one. */
import type { ImagePart } from '../../canonical/types';

interface InlineImage {
  mediaType: string;
  /** Base64, as it appeared in the data URL. */
  data: string;
}

/** `data:image/png;base64,AAAA` → {mediaType, data}; undefined for anything else. */
function parseImageDataUrl(url: string): InlineImage | undefined {
  const match = /^data:([^;,]+)(?:;[^;,]*)*;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1]!.toLowerCase(), data: match[2]! };
}

/** An image as vendors take it: its bytes when it carries them, else where to fetch it. */
export type ImageRef = ({ kind: 'inline' } & InlineImage) | { kind: 'remote'; url: string };

/** Base64 sources and data URLs are inline; any other URL is remote. */
export function imageRef(part: ImagePart): ImageRef {
  const { source } = part;
  if (source.kind === 'base64') return { kind: 'inline', mediaType: source.mediaType, data: source.data };
  const inline = parseImageDataUrl(source.url);
  return inline ? { kind: 'inline', ...inline } : { kind: 'remote', url: source.url };
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
