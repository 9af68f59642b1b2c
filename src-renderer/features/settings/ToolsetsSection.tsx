import { useState, type KeyboardEvent } from 'react';
import type { Toolset } from '../../../src-shared/contract/chat';
import { useT } from '../../i18n';
import { useApp } from '../../store/useApp';

/** The set with `key` added to (or taken from) `field`; an emptied list is left out. */
function toggled(set: Toolset, field: 'servers' | 'tools', key: string, on: boolean): Toolset {
  const rest = (set[field] ?? []).filter((k) => k !== key);
  const list = on ? [...rest, key] : rest;
  const { [field]: _old, ...others } = set;
  return list.length > 0 ? { ...others, [field]: list } : others;
}

/** A name committed on Enter or when the field is left (not on every key: each save is a rename). */
function NameField({ name, onRename }: { name: string; onRename(next: string): void }) {
  const t = useT();
  const [text, setText] = useState(name);
  const commit = (): void => {
    const next = text.trim();
    if (next !== '' && next !== name) onRename(next);
    else setText(name);
  };
  return (
    <input
      data-testid="toolset-name"
      aria-label={t('toolsets.rename')}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      }}
    />
  );
}

/** Settings → Chat: named sets of servers and tools, and the set new conversations use. */
export function ToolsetsSection() {
  const t = useT();
  const settings = useApp((s) => s.chatSettings);
  const servers = useApp((s) => s.servers);
  const edit = useApp((s) => s.editToolsets);
  const [error, setError] = useState<string | undefined>(undefined);
  const [newName, setNewName] = useState('');
  const toolsets = settings?.toolsets ?? [];
  const defaultSet = settings?.defaultToolset;
  // Each change is made to the sets as last saved (see editToolsets), named by set, not by this render's list.
  const commit = async (change: Parameters<typeof edit>[0]): Promise<boolean> => {
    const problem = await edit(change);
    setError(problem);
    return problem === undefined;
  };
  const replace = (name: string, change: (set: Toolset) => Toolset): void => {
    void commit((sets, current) => {
      const renamed = change(sets.find((s) => s.name === name) ?? { name }).name;
      return {
        toolsets: sets.map((s) => (s.name === name ? change(s) : s)),
        ...(current === name && renamed !== name ? { defaultToolset: renamed } : {}),
      };
    });
  };
  const add = async (): Promise<void> => {
    const name = newName.trim();
    if (name === '') return;
    if (await commit((sets) => ({ toolsets: [...sets, { name }] }))) setNewName('');
  };
  const configured = new Set(servers.map((s) => s.name));
  return (
    <section className="settings-section settings-wide" aria-labelledby="settings-toolsets" data-testid="toolsets-section">
      <h2 id="settings-toolsets">{t('toolsets.heading')}</h2>
      <p className="muted">{t('toolsets.intro')}</p>
      {settings?.toolsetsError && (
        <p className="form-error" role="alert" data-testid="toolsets-file-error">
          {t('toolsets.invalid', { error: settings.toolsetsError })}
        </p>
      )}
      <label className="field-row">
        <span>{t('toolsets.defaultLabel')}</span>
        <select
          data-testid="default-toolset"
          value={defaultSet ?? ''}
          onChange={(e) => {
            const value = e.target.value;
            void commit(() => ({ defaultToolset: value === '' ? null : value }));
          }}
        >
          <option value="">{t('toolsets.all')}</option>
          {toolsets.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      {toolsets.length === 0 && <p className="muted">{t('toolsets.none')}</p>}
      {toolsets.map((set) => {
        const setServers = new Set(set.servers ?? []);
        const setTools = new Set(set.tools ?? []);
        const serverNames = [...new Set([...servers.map((s) => s.name), ...setServers])];
        const knownKeys = new Set(servers.flatMap((s) => s.tools.map((tool) => `${s.name}/${tool.name}`)));
        const otherKeys = [...setTools].filter((k) => !knownKeys.has(k));
        return (
          <fieldset key={set.name} className="toolset-editor" data-testid="toolset" data-name={set.name}>
            <legend>{set.name}</legend>
            <div className="field-row">
              <NameField key={set.name} name={set.name} onRename={(next) => replace(set.name, (s) => ({ ...s, name: next }))} />
              <button
                type="button"
                className="btn btn-small"
                data-testid="toolset-delete"
                onClick={() => void commit((sets) => ({ toolsets: sets.filter((s) => s.name !== set.name) }))}
              >
                {t('toolsets.delete')}
              </button>
            </div>
            {setServers.size === 0 && setTools.size === 0 && <p className="muted">{t('toolsets.empty')}</p>}
            <div className="toolset-servers">
              <span>{t('toolsets.servers')}</span>
              {serverNames.map((server) => (
                <label key={server} className="tool-toggle">
                  <input
                    type="checkbox"
                    data-testid="toolset-server"
                    data-server={server}
                    checked={setServers.has(server)}
                    onChange={(e) => {
                      const on = e.target.checked;
                      replace(set.name, (s) => toggled(s, 'servers', server, on));
                    }}
                  />
                  {server}
                  {!configured.has(server) && <span className="tag">{t('toolsets.notConfigured')}</span>}
                </label>
              ))}
            </div>
            <div className="toolset-tools">
              <span>{t('toolsets.tools')}</span>
              {servers
                .filter((s) => s.tools.length > 0)
                .map((server) => {
                  const whole = setServers.has(server.name);
                  const chosen = server.tools.filter((tool) => whole || setTools.has(`${server.name}/${tool.name}`)).length;
                  return (
                    <details key={server.name} data-testid="toolset-tools" data-server={server.name}>
                      <summary>
                        {server.name} <span className="muted">({t('toolsets.countTools', { count: chosen })})</span>
                      </summary>
                      {server.tools.map((tool) => {
                        const key = `${server.name}/${tool.name}`;
                        return (
                          <label key={key} className="tool-toggle">
                            <input
                              type="checkbox"
                              data-testid="toolset-tool"
                              data-key={key}
                              disabled={whole}
                              checked={whole || setTools.has(key)}
                              onChange={(e) => {
                                const on = e.target.checked;
                                replace(set.name, (s) => toggled(s, 'tools', key, on));
                              }}
                            />
                            {tool.name}
                          </label>
                        );
                      })}
                    </details>
                  );
                })}
              {otherKeys.map((key) => (
                <label key={key} className="tool-toggle">
                  <input
                    type="checkbox"
                    data-testid="toolset-tool"
                    data-key={key}
                    checked
                    onChange={() => replace(set.name, (s) => toggled(s, 'tools', key, false))}
                  />
                  {key} <span className="tag">{t('toolsets.notConfigured')}</span>
                </label>
              ))}
            </div>
          </fieldset>
        );
      })}
      <div className="field-row">
        <input
          data-testid="toolset-new-name"
          aria-label={t('toolsets.newName')}
          placeholder={t('toolsets.newName')}
          value={newName}
          onChange={(e) => setNewName(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void add();
            }
          }}
        />
        <button type="button" className="btn" data-testid="toolset-add" disabled={newName.trim() === ''} onClick={() => void add()}>
          {t('toolsets.add')}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert" data-testid="toolsets-error">
          {error}
        </p>
      )}
    </section>
  );
}
