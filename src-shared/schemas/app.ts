import { z } from 'zod';

/** Argument tuples of the app and OS shell channels (see ../contract/app.ts). */

export const appChannels = {
  'app:info': z.tuple([]),
  'shell:open': z.tuple([z.enum(['config', 'logs'])]),
  /**
   * Opening a web page in the person's own browser, after they consented (a URL elicitation's "Open"). https only:
   * anything else is refused before it reaches the shell.
   */
  'shell:open-url': z.tuple([z.url({ protocol: /^https$/ }).max(8192)]),
} as const;
