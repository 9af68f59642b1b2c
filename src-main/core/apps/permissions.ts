import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { AppPermissionName, AppPermissions } from '../../../src-shared/host-api';
import { messageOf } from '../errors';
import { writeFileAtomicSync } from '../support/data-files';

/*
 * The browser features (camera, microphone, geolocation, clipboard-write) a person let a server's apps use, per
 * server, remembered in `app-permissions.json` in the data folder (0600, written atomically like consent.json). Only
 * what is recorded here reaches a frame's `allow`; what an app's resource asks for beyond it is not granted.
 */

export const appPermissionsFileName = 'app-permissions.json';
export const appPermissionNames: readonly AppPermissionName[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

const fileSchema = z.object({
  version: z.literal(1),
  servers: z.record(z.string(), z.object({ granted: z.array(z.enum(['camera', 'microphone', 'geolocation', 'clipboardWrite'])), at: z.string() })),
});
type PermissionsFile = z.infer<typeof fileSchema>;

/** The permissions a resource asks for, in a fixed order. */
export function askedPermissions(permissions: AppPermissions | undefined): AppPermissionName[] {
  return appPermissionNames.filter((name) => permissions?.[name] !== undefined);
}

export class AppPermissionStore {
  private data: PermissionsFile = { version: 1, servers: {} };
  /** Why the file could not be read (its grants are then none; the next grant rewrites it). */
  readonly problem: string | undefined;

  constructor(private readonly file: string | undefined) {
    if (file === undefined) return;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return;
    }
    try {
      const parsed = fileSchema.safeParse(JSON.parse(text));
      if (parsed.success) this.data = parsed.data;
      else this.problem = `${file} is not valid (${parsed.error.issues[0]?.message ?? 'bad shape'}): apps get no permissions until they are granted again.`;
    } catch (error) {
      this.problem = `${file} is not JSON (${messageOf(error)}): apps get no permissions until they are granted again.`;
    }
  }

  granted(server: string): AppPermissionName[] {
    const entry = Object.hasOwn(this.data.servers, server) ? this.data.servers[server] : undefined;
    return appPermissionNames.filter((name) => entry?.granted.includes(name) === true);
  }

  /** Records the person's answer: exactly these are granted to the server's apps from now on. */
  grant(server: string, permissions: readonly AppPermissionName[]): AppPermissionName[] {
    const granted = appPermissionNames.filter((name) => permissions.includes(name));
    const servers = { ...this.data.servers };
    if (granted.length === 0) delete servers[server];
    else servers[server] = { granted, at: new Date().toISOString() };
    const next: PermissionsFile = { version: 1, servers };
    if (this.file !== undefined) writeFileAtomicSync(this.file, `${JSON.stringify(next, null, 2)}\n`);
    this.data = next;
    return granted;
  }
}
