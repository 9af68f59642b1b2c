import { inToolset, maxLoadedTools } from '../../../src-shared/contract/chat';
import { useT } from '../../i18n';
import { useApp } from '../../store/useApp';
import './conversation-tools.css';

/** `server/tool` → its two parts (the server name never holds a "/" in these keys' first part). */
function splitKey(key: string): { server: string; tool: string } {
  const at = key.indexOf('/');
  return at < 0 ? { server: '', tool: key } : { server: key.slice(0, at), tool: key.slice(at + 1) };
}

/**
 * Above the composer: the conversation's toolset (when there are toolsets) and, in search mode, the tools it has
 * loaded, each of which can be pinned (kept when the list is trimmed) or removed (not offered from the next step).
 */
export function ConversationToolsBar() {
  const t = useT();
  const tools = useApp((s) => s.conversationTools);
  const settings = useApp((s) => s.chatSettings);
  const pending = useApp((s) => s.pendingToolset);
  const chooseToolset = useApp((s) => s.chooseToolset);
  const pinTool = useApp((s) => s.pinTool);
  const removeTools = useApp((s) => s.removeTools);
  const toolsets = settings?.toolsets ?? [];
  const defaultSet = settings?.defaultToolset;
  // The conversation's own choice, else the one picked for the next new conversation, else the default set.
  const chosen = tools?.toolset !== undefined ? tools.toolset : pending !== undefined ? pending : (defaultSet ?? null);
  const names = toolsets.map((s) => s.name);
  if (chosen !== null && !names.includes(chosen)) names.push(chosen);
  const showList = tools !== undefined && (tools.toolMode === 'search' || (tools.toolMode === undefined && tools.loadedTools.length > 0));
  if (toolsets.length === 0 && chosen === null && !showList) return null;
  const pinned = new Set(tools?.pinnedTools ?? []);
  const loaded = tools?.loadedTools ?? [];
  const unpinned = loaded.filter((k) => !pinned.has(k));
  // A loaded tool the chosen set leaves out stays loaded but is not offered while that set is chosen.
  const chosenSet = chosen !== null ? toolsets.find((s) => s.name === chosen) : undefined;
  return (
    <div className="conversation-tools" data-testid="conversation-tools">
      {(toolsets.length > 0 || chosen !== null) && (
        <label className="toolset-choice">
          <span>{t('toolsets.label')}</span>
          <select data-testid="toolset-select" value={chosen ?? ''} onChange={(e) => void chooseToolset(e.target.value === '' ? null : e.target.value)}>
            <option value="">{t('toolsets.all')}</option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name === defaultSet ? t('toolsets.defaultName', { name }) : name}
              </option>
            ))}
          </select>
        </label>
      )}
      {showList && (
        <details className="loaded-tools" data-testid="loaded-tools">
          <summary data-testid="loaded-tools-summary">{t('loadedTools.summary', { count: loaded.length })}</summary>
          <p className="muted">{loaded.length === 0 ? t('loadedTools.none') : t('loadedTools.hint', { max: maxLoadedTools })}</p>
          {loaded.length > 0 && (
            <ul className="loaded-tool-list">
              {loaded.map((key) => {
                const { server, tool } = splitKey(key);
                const isPinned = pinned.has(key);
                const offered = chosenSet === undefined || inToolset(chosenSet, { server, tool });
                return (
                  <li
                    key={key}
                    className={offered ? undefined : 'is-outside'}
                    data-testid="loaded-tool"
                    data-key={key}
                    data-pinned={isPinned ? 'true' : 'false'}
                    data-offered={offered ? 'true' : 'false'}
                  >
                    <span className="loaded-tool-name">
                      <span className="muted">{server}</span> › <span className="mono">{tool}</span>
                      {isPinned && <span className="tag">{t('loadedTools.pinned')}</span>}
                      {!offered && (
                        <span className="tag tag-outside" data-testid="loaded-tool-outside" title={t('loadedTools.outsideTitle', { toolset: chosen ?? '' })}>
                          {t('loadedTools.outside')}
                        </span>
                      )}
                    </span>
                    <button
                      type="button"
                      className="btn btn-small"
                      data-testid="loaded-tool-pin"
                      aria-pressed={isPinned}
                      title={t('loadedTools.pinTitle', { tool })}
                      onClick={() => void pinTool(key, !isPinned)}
                    >
                      {isPinned ? t('loadedTools.unpin') : t('loadedTools.pin')}
                    </button>
                    <button
                      type="button"
                      className="btn btn-small"
                      data-testid="loaded-tool-remove"
                      title={t('loadedTools.removeTitle', { tool })}
                      onClick={() => void removeTools([key])}
                    >
                      {t('loadedTools.remove')}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {unpinned.length > 0 && (
            <button type="button" className="btn btn-small" data-testid="loaded-tools-clear" onClick={() => void removeTools(unpinned)}>
              {t('loadedTools.clear')}
            </button>
          )}
        </details>
      )}
    </div>
  );
}
