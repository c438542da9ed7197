import type { ImagePart } from '../../canonical/types';
import { badRequest } from '../../http/app-error';

/**
 * An image given as a URL string: `data:<type>;base64,<data>` becomes inline base64 (so
 * vendors that cannot fetch URLs still get it), http(s) stays a URL. Parsed with indexOf,
 * not a regex, because data URLs can be megabytes long.
 */
export function imageFromUrl(url: string, field: string): ImagePart {
  if (url.startsWith('data:')) {
    const comma = url.indexOf(',');
    const header = comma === -1 ? '' : url.slice(5, comma);
    if (!header.endsWith(';base64')) {
      throw badRequest(`Invalid '${field}': data URLs must be base64 (data:<media type>;base64,<data>)`);
    }
    const mediaType = header.slice(0, -';base64'.length).split(';')[0] ?? '';
    if (mediaType === '') throw badRequest(`Invalid '${field}': data URL has no media type`);
    return { type: 'image', source: { kind: 'base64', mediaType, data: url.slice(comma + 1) } };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { kind: 'url', url } };
  throw badRequest(`Invalid '${field}': expected an http(s) URL or a base64 data: URL`);
}

/** The reverse, for formats that only carry image URLs. */
export function imageToUrl(image: ImagePart): string {
  const { source } = image;
  return source.kind === 'url' ? source.url : `data:${source.mediaType};base64,${source.data}`;
}
