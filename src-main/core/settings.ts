/** App settings the core reads. Electron backs this with electron-store; CLI/headless with `conf` (its Node base). */
export interface SettingsStore {
  /** Extra environment variable names the user allows every child to inherit (DESIGN §3). */
  envAllowList(): string[];
}

/** Settings held in memory: tests, and callers that pass an explicit list. */
export class StaticSettings implements SettingsStore {
  constructor(private readonly allow: string[] = []) {}
  envAllowList(): string[] {
    return [...this.allow];
  }
}
