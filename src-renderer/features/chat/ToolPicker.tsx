import { useApp } from '../../store/useApp';
import { useT } from '../../i18n';

const encode = (server: string, tool: string): string => JSON.stringify([server, tool]);

function decode(value: string): { server: string; tool: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string') {
      return { server: parsed[0], tool: parsed[1] };
    }
  } catch {
    // not a tool option
  }
  return undefined;
}

/** A select listing every ready server's tools; choosing one opens its form. */
export function ToolPicker() {
  const servers = useApp((s) => s.servers);
  const selected = useApp((s) => s.selectedTool);
  const selectTool = useApp((s) => s.selectTool);
  const t = useT();
  const ready = servers.filter((s) => s.status === 'ready' && s.tools.length > 0);
  const value = selected ? encode(selected.server, selected.tool) : '';

  return (
    <select className="tool-picker" data-testid="tool-picker" aria-label={t('tools.choose')} value={value} onChange={(e) => selectTool(decode(e.target.value))}>
      <option value="">{t('tools.placeholder')}</option>
      {ready.map((server) => (
        <optgroup key={server.name} label={server.name}>
          {server.tools.map((tool) => (
            <option key={tool.name} value={encode(server.name, tool.name)}>
              {tool.name}
            </option>
          ))}
        </optgroup>
      ))}
      {selected && !ready.some((s) => s.name === selected.server) && (
        <option value={value}>
          {selected.server} › {selected.tool} (not ready)
        </option>
      )}
    </select>
  );
}
