import { z } from 'zod';

/**
 * Opening a web page in the person's own browser, after they consented (a URL elicitation's "Open"). https only:
 * anything else is refused before it reaches the shell.
 */
export const shellChannels = {
  'shell:open-url': z.tuple([z.url({ protocol: /^https$/ }).max(8192)]),
} as const;
