/** The site name before GET /api/setup/status answers (the setting's default). */
export const DEFAULT_SITE_NAME = 'Sluice';

/** The browser tab's title: "<page> · <site name>", or the site name alone. */
export function documentTitle(siteName: string | undefined, page?: string): string {
  const site = siteName?.trim() || DEFAULT_SITE_NAME;
  return page ? `${page} · ${site}` : site;
}
