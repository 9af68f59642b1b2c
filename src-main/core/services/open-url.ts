import type { HostMethods } from '../../../src-shared/host-api';

export type OpenUrlChannel = 'shell:open-url';

/** Opens an https URL in the system browser (the desktop shell provides it); headless has none. */
export type OpenExternal = (url: string) => Promise<boolean>;

/** True only for a well-formed https URL (the one scheme `shell:open-url` hands to the OS). */
export function isHttpsUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * `shell:open-url`: the person consented to open a page (a URL elicitation). Desktop: the system browser opens it;
 * headless: `opened: false`, and the page shows the link for the person to click. Never anything but https.
 */
export function openUrlApi(openExternal: OpenExternal | undefined): Pick<HostMethods, OpenUrlChannel> {
  return {
    'shell:open-url': async (url) => {
      if (!isHttpsUrl(url) || !openExternal) return { opened: false, url };
      return { opened: await openExternal(url), url };
    },
  };
}
