import { describe, expect, it } from 'vitest';
import type { AppPermissionName } from '../../src-shared/contract/apps';
import { appPermissionsNeeded, mayGrantAppPermission, type PermissionAsk } from './app-permissions';

const a = 'a'.repeat(32);
const b = 'b'.repeat(32);
const grants: Record<string, AppPermissionName[]> = { [a]: ['camera', 'microphone', 'clipboardWrite'], [b]: ['geolocation'] };
const granted = (id: string): AppPermissionName[] | undefined => grants[id];
const ask = (over: Partial<PermissionAsk>): PermissionAsk => ({
  permission: 'media',
  mediaTypes: ['video'],
  requestingUrl: 'about:srcdoc',
  appFrames: [a],
  ...over,
});

describe('mayGrantAppPermission', () => {
  it('maps Electron permissions to the MCP Apps ones, and nothing else', () => {
    expect(appPermissionsNeeded({ permission: 'media', mediaTypes: ['video', 'audio'] })).toEqual(['camera', 'microphone']);
    expect(appPermissionsNeeded({ permission: 'geolocation' })).toEqual(['geolocation']);
    expect(appPermissionsNeeded({ permission: 'clipboard-sanitized-write' })).toEqual(['clipboardWrite']);
    expect(appPermissionsNeeded({ permission: 'media', mediaTypes: [] })).toBeUndefined();
    expect(appPermissionsNeeded({ permission: 'notifications' })).toBeUndefined();
    expect(appPermissionsNeeded({ permission: 'clipboard-read' })).toBeUndefined();
  });

  it('grants an app frame what was granted to it', () => {
    expect(mayGrantAppPermission(ask({}), granted)).toBe(true);
    expect(mayGrantAppPermission(ask({ mediaTypes: ['video', 'audio'] }), granted)).toBe(true);
    expect(mayGrantAppPermission(ask({ permission: 'clipboard-sanitized-write', mediaTypes: undefined }), granted)).toBe(true);
    // The proxy page itself, named by its URL.
    expect(mayGrantAppPermission(ask({ requestingUrl: `switchboard-app://${b}/`, permission: 'geolocation', appFrames: [] }), granted)).toBe(true);
  });

  it('refuses what was not granted, unknown or closed frames, and every other page', () => {
    expect(mayGrantAppPermission(ask({ permission: 'geolocation', mediaTypes: undefined }), granted)).toBe(false);
    expect(mayGrantAppPermission(ask({ appFrames: ['c'.repeat(32)] }), granted)).toBe(false);
    expect(mayGrantAppPermission(ask({ appFrames: [] }), granted)).toBe(false);
    expect(mayGrantAppPermission(ask({ requestingUrl: 'file:///app/index.html' }), granted)).toBe(false);
    expect(mayGrantAppPermission(ask({ requestingUrl: 'https://embedded.example.com/' }), granted)).toBe(false);
    expect(mayGrantAppPermission(ask({ requestingUrl: undefined }), granted)).toBe(false);
    expect(mayGrantAppPermission(ask({ permission: 'notifications' }), granted)).toBe(false);
  });

  it('when it cannot tell which app asked (srcdoc frames are opaque), every app frame on the page must have it', () => {
    expect(mayGrantAppPermission(ask({ appFrames: [a, b] }), granted)).toBe(false);
    expect(mayGrantAppPermission(ask({ permission: 'geolocation', mediaTypes: undefined, appFrames: [b, b] }), granted)).toBe(true);
  });
});
