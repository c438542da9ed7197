import { describe, expect, it } from 'vitest';
import { imageRef } from './images';

const url = (value: string) => imageRef({ type: 'image', source: { kind: 'url', url: value } });

describe('imageRef', () => {
  it('keeps base64 sources as they are', () => {
    const part = { type: 'image', source: { kind: 'base64', mediaType: 'image/PNG', data: 'iVBO' } } as const;
    expect(imageRef(part)).toEqual({ kind: 'inline', mediaType: 'image/PNG', data: 'iVBO' });
  });

  it('inlines base64 data URLs, parameters skipped and the media type lower-cased', () => {
    expect(url('data:image/jpeg;base64,/9j/4AAQ')).toEqual({
      kind: 'inline',
      mediaType: 'image/jpeg',
      data: '/9j/4AAQ',
    });
    expect(url('data:image/PNG;name=cat.png;base64,iVBO')).toEqual({
      kind: 'inline',
      mediaType: 'image/png',
      data: 'iVBO',
    });
  });

  it('leaves http(s) and non-base64 data URLs remote', () => {
    expect(url('https://example.com/cat.png')).toEqual({
      kind: 'remote',
      url: 'https://example.com/cat.png',
    });
    expect(url('data:image/svg+xml,<svg/>')).toEqual({ kind: 'remote', url: 'data:image/svg+xml,<svg/>' });
  });
});
