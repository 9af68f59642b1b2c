import type { ServerView } from '../../../src-shared/host-api';
import { revealHidden } from '../../../src-shared/hidden-text';
import { TrustBadge } from '../trust/TrustBadge';
import { useApp } from '../../store/useApp';
import { useT } from '../../i18n';

export function ToolList({ server }: { server: ServerView }) {
  const selected = useApp((s) => (s.selectedTool?.server === server.name ? s.selectedTool.tool : undefined));
  const selectTool = useApp((s) => s.selectTool);
  const closeServerPage = useApp((s) => s.closeServerPage);
  const t = useT();
  if (server.tools.length === 0) return <p className="muted tools-empty">{t('tools.none')}</p>;
  return (
    <div className="tools">
      <div className="tools-head muted" data-testid="tool-count">
        {t('tools.count', { count: server.tools.length })}
      </div>
      <ul className="tool-list" aria-label={t('tools.listLabel', { server: server.name })}>
        {server.tools.map((tool) => (
          <li key={tool.name}>
            <button
              type="button"
              className={`tool-item${selected === tool.name ? ' selected' : ''}`}
              data-testid="tool-item"
              data-tool={tool.name}
              data-review={tool.review?.state}
              aria-pressed={selected === tool.name}
              title={revealHidden(tool.description ?? tool.name)}
              onClick={() => {
                selectTool({ server: server.name, tool: tool.name });
                // The form opens in the chat: bring it back if a server's page covers it.
                closeServerPage();
              }}
            >
              <span className="tool-name">
                {tool.name}
                {tool.execution?.taskSupport === 'required' && (
                  <span className="tool-task" title={t('tools.taskOnly')}>
                    {t('tools.task')}
                  </span>
                )}
                <TrustBadge tool={tool} />
              </span>
              {(tool.description ?? tool.title) && <span className="tool-desc">{revealHidden(tool.description ?? tool.title ?? '')}</span>}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
