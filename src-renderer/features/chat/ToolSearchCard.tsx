import type { ToolPart, ToolSearchInfo } from '../../../src-shared/contract/chat';
import { useT } from '../../i18n';

/** The card of a `search_tools` call: what the model searched for and the tools that search loaded. */
export function ToolSearchCard({ part, search }: { part: ToolPart; search: ToolSearchInfo }) {
  const t = useT();
  const loaded = search.matches.filter((m) => m.newlyLoaded).length;
  return (
    <article className="card call call-ok tool-card tool-search-card" data-testid="tool-search-card" data-status={part.status}>
      <header className="card-head">
        <span className="card-title">
          <strong>{t('toolSearch.title')}</strong> <q data-testid="tool-search-query">{search.query}</q>
        </span>
        <span className="pill pill-ok">{t('toolSearch.loaded', { count: loaded })}</span>
      </header>
      <div className="card-body">
        {search.matches.length === 0 ? (
          <p className="muted">{t('toolSearch.none')}</p>
        ) : (
          <ol className="plain-list" data-testid="tool-search-matches">
            {search.matches.map((m) => (
              <li key={`${m.server}/${m.tool}`} data-server={m.server} data-tool={m.tool}>
                <span className="muted">{m.server}</span> › <strong>{m.tool}</strong>
                {m.title !== undefined && m.title !== m.tool && <span className="muted"> — {m.title}</span>}
                {!m.newlyLoaded && <span className="tag">{t('toolSearch.already')}</span>}
              </li>
            ))}
          </ol>
        )}
      </div>
    </article>
  );
}
