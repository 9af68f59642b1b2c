/** `${secret:…}` values as the UI sees them: names only, values never leave main. Zod-free. */

/** The secret names (never values; Switchboard's own sign-in records left out, as in `secrets:list`) after a change. */
export interface SecretsChangedEvent {
  names: string[];
}

export interface SecretsResults {
  /** Secret names only: values never leave main. */
  'secrets:list': string[];
  'secrets:set': void;
  'secrets:delete': boolean;
}

export interface SecretsEvents {
  /** Secrets were added, changed or removed: by this app (any window or tab) or by another process (the CLI). */
  'secrets:changed': SecretsChangedEvent;
}

/** Each secrets channel and event once, at runtime (the preload and the IPC gateway register them by name). */
export const secretsChannelNames = { 'secrets:list': true, 'secrets:set': true, 'secrets:delete': true } as const satisfies Record<keyof SecretsResults, true>;
export const secretsEventNames = { 'secrets:changed': true } as const satisfies Record<keyof SecretsEvents, true>;
