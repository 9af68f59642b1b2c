import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { appMimeType } from './ui-resource';

/** The MCP Apps extension's id in `capabilities.extensions` (spec 2026-01-26). */
export const appsExtensionId = 'io.modelcontextprotocol/ui';

/**
 * The client capability (with the one UI resource type Switchboard renders) that tells servers this host renders MCP Apps: servers that check it (`getUiCapability`)
 * offer their UI tools only to hosts that declare it, and their text-only tools to the rest.
 */
export const appsClientCapabilities: ClientCapabilities = {
  extensions: { [appsExtensionId]: { mimeTypes: [appMimeType] } },
};
