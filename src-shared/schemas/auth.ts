import { z } from 'zod';

/** Argument tuples of the OAuth sign-in channels (see ../contract/auth.ts). */

const serverName = z.string().min(1).max(200);
export const loginOptionsSchema = z.strictObject({
  /** Do not open a browser: the authorization URL is only shown (the server's `auth.authorizationUrl`). */
  noBrowser: z.boolean().optional(),
});

export const authChannels = {
  /** Signs in to a remote server (discovery, registration, the browser step, the loopback redirect); resolves once signed in. */
  'auth:login': z.tuple([serverName, loginOptionsSchema.optional()]),
  /** Signs out: revokes where the authorization server offers it, deletes the stored tokens. */
  'auth:logout': z.tuple([serverName]),
  /**
   * The client a person registered at an authorization server that lets no app register itself: saved in the entry
   * (`oauth.clientId`, `oauth.redirectPort`) and, for a secret, in the secret store (`oauth.clientSecret` refers to it).
   */
  'auth:set-client': z.tuple([
    serverName,
    z.strictObject({
      clientId: z.string().trim().min(1).max(2000),
      clientSecret: z.string().min(1).max(4000).optional(),
      redirectPort: z.number().int().min(1).max(65535).optional(),
    }),
  ]),
} as const;
