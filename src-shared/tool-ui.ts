import type { AppVisibility, ToolInfo } from './host-api';

/*
 * What a tool's `_meta` says about MCP Apps (`io.modelcontextprotocol/ui`, spec 2026-01-26): the `ui://` resource its
 * results render in (`_meta.ui.resourceUri`, or the deprecated flat `_meta["ui/resourceUri"]`) and who may call it
 * (`_meta.ui.visibility`, both the model and the app when absent). Read leniently: a malformed `_meta` is no UI.
 */

const bothVisible: readonly AppVisibility[] = Object.freeze(['model', 'app']);

function uiMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const ui = meta?.ui;
  return typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}

/** The tool's `_meta.ui` object, when it has one (pinned with its definition). */
export function toolUiMeta(tool: Pick<ToolInfo, '_meta'>): Record<string, unknown> | undefined {
  return uiMeta(tool._meta);
}

/** The `ui://` resource the tool's results render in, if it names one. */
export function toolResourceUri(tool: Pick<ToolInfo, '_meta'>): string | undefined {
  const nested = uiMeta(tool._meta)?.resourceUri;
  if (typeof nested === 'string' && nested !== '') return nested;
  const flat = tool._meta?.['ui/resourceUri'];
  return typeof flat === 'string' && flat !== '' ? flat : undefined;
}

/** Who may call the tool: `model` (offered to the model, callable by a person) and/or `app` (its own server's app). */
export function toolVisibility(tool: Pick<ToolInfo, '_meta'>): readonly AppVisibility[] {
  const visibility = uiMeta(tool._meta)?.visibility;
  if (!Array.isArray(visibility)) return bothVisible;
  return visibility.filter((v): v is AppVisibility => v === 'model' || v === 'app');
}

/** A tool only its app may call: never offered to the model, never a slash command, refused as a direct call. */
export function isAppOnly(tool: Pick<ToolInfo, '_meta'>): boolean {
  return !toolVisibility(tool).includes('model');
}
