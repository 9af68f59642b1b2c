import { useEffect, useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { slashSuggestions, type SlashSuggestion } from '../../store/command';
import { skillSuggestions } from '../../store/skill-suggestions';
import { useApp } from '../../store/useApp';
import type { AppState } from '../../store';
import { canChat } from '../../store/providers-slice';
import { ToolPicker } from './ToolPicker';
import { useT } from '../../i18n';
import { ChatRouteLine, DotenvNotice } from './ChatRoute';
import './slash-suggestions.css';

/** Placeholders said in the UI's language (exampleCommand returns these keys, or a command line as it is). */
const askAnything = 'composer.askAnything';
const typeOnceReady = 'composer.typeOnceReady';

/** A placeholder that names a tool one can call right now. */
function exampleCommand(state: AppState): string {
  if (canChat(state.providers)) return askAnything;
  const tools = state.servers.filter((s) => s.status === 'ready').flatMap((s) => s.tools.map((t) => t.name));
  if (tools.includes('add')) return '/add {"a":2,"b":3}';
  const first = tools[0];
  return first ? `/${first} {…}` : typeOnceReady;
}

const historyKey = 'switchboard.composerHistory';
const historyLimit = 100;

/** Earlier lines, oldest first (remembered per browser, so ↑ still recalls them after a reload). */
function loadHistory(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(historyKey) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string').slice(-historyLimit) : [];
  } catch {
    return [];
  }
}
function saveHistory(history: string[]): void {
  try {
    localStorage.setItem(historyKey, JSON.stringify(history.slice(-historyLimit)));
  } catch {
    // not remembered across reloads; fine
  }
}

export function Composer() {
  const [text, setText] = useState('');
  const [history, setHistory] = useState<string[]>(loadHistory);
  const [cursor, setCursor] = useState<number | undefined>(undefined);
  // The highlighted suggestion (↑/↓ move it; Tab or Enter take it), and whether Esc dismissed the list.
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | undefined>(undefined);
  const selectTool = useApp((s) => s.selectTool);
  const formOpen = useApp((s) => s.selectedTool !== undefined || s.promptForm !== undefined);
  const submit = useApp((s) => s.submit);
  const t = useT();
  const command = useApp(exampleCommand);
  const example = command === askAnything ? t('composer.askAnything') : command === typeOnceReady ? t('composer.typeOnceReady') : command;
  const running = useApp((s) => s.activeRunId !== undefined);
  const stopChat = useApp((s) => s.stopChat);
  const servers = useApp((s) => s.servers);
  const promptLists = useApp((s) => s.promptLists);
  const loadAllPrompts = useApp((s) => s.loadAllPrompts);
  const openPromptForm = useApp((s) => s.openPromptForm);
  const skillLists = useApp((s) => s.skillLists);
  const loadAllSkills = useApp((s) => s.loadAllSkills);
  const attachResource = useApp((s) => s.attachResource);

  // While a `/name` is being typed (no arguments yet): the tools and prompts it could be.
  const typed = /^\/([^\s{]*)$/.exec(text)?.[1];
  const slashing = typed !== undefined;
  useEffect(() => {
    if (slashing) void Promise.all([loadAllPrompts(), loadAllSkills()]);
  }, [slashing, servers, loadAllPrompts, loadAllSkills]);
  const suggestions = useMemo(
    () => (typed === undefined ? [] : [...slashSuggestions(typed, servers, promptLists), ...skillSuggestions(typed, servers, skillLists)]),
    [typed, servers, promptLists, skillLists],
  );
  const exact = suggestions.length === 1 && suggestions[0]?.command === typed;
  const showSuggestions = suggestions.length > 0 && !exact && dismissed !== text;
  const activeIndex = Math.min(active, Math.max(0, suggestions.length - 1));
  useEffect(() => setActive(0), [typed]);

  const take = (suggestion: SlashSuggestion): void => {
    if (suggestion.kind === 'prompt') {
      openPromptForm({ server: suggestion.server, name: suggestion.name, args: {} });
      setText('');
    } else if (suggestion.kind === 'skill' && suggestion.uri !== undefined) {
      attachResource({ server: suggestion.server, uri: suggestion.uri });
      setText('');
    } else {
      setText(`/${suggestion.command} `);
    }
  };

  const send = (event?: FormEvent): void => {
    event?.preventDefault();
    const line = text.trim();
    if (line === '') return;
    setHistory((h) => {
      const next = h[h.length - 1] === line ? h : [...h, line].slice(-historyLimit);
      saveHistory(next);
      return next;
    });
    setCursor(undefined);
    if (submit(line)) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    // While `/name` suggestions show: ↑/↓ move the highlight, Tab (or Enter after moving) takes it, Esc hides them.
    const highlighted = suggestions[activeIndex];
    if (showSuggestions && highlighted) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const n = suggestions.length;
        setActive((activeIndex + (event.key === 'ArrowDown' ? 1 : n - 1)) % n);
        return;
      }
      if ((event.key === 'Tab' && !event.shiftKey) || (event.key === 'Enter' && !event.shiftKey && active > 0 && !event.nativeEvent.isComposing)) {
        event.preventDefault();
        take(highlighted);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissed(text);
        return;
      }
    }
    // Esc closes the tool's (or prompt's) form above the box.
    if (event.key === 'Escape' && formOpen) {
      event.preventDefault();
      selectTool(undefined);
      openPromptForm(undefined);
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      send(event);
      return;
    }
    // Up/Down walk through earlier commands when the box is a single line.
    if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && !text.includes('\n') && history.length > 0) {
      const last = history.length - 1;
      const next = event.key === 'ArrowUp' ? Math.max(0, (cursor ?? history.length) - 1) : cursor === undefined || cursor >= last ? undefined : cursor + 1;
      event.preventDefault();
      setCursor(next);
      setText(next === undefined ? '' : (history[next] ?? ''));
    }
  };

  return (
    <>
      <DotenvNotice />
      <form className="composer" onSubmit={send}>
        {showSuggestions && (
          <ul id="slash-suggestions" className="slash-suggestions" role="listbox" aria-label={t('composer.commands')} data-testid="slash-suggestions">
            {suggestions.map((sg, i) => (
              <li
                key={`${sg.kind}:${sg.server}:${sg.name}`}
                id={`slash-suggestion-${i}`}
                role="option"
                aria-selected={i === activeIndex}
                className={i === activeIndex ? 'active' : ''}
                data-testid="slash-suggestion"
                data-kind={sg.kind}
                data-name={sg.name}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => take(sg)}
              >
                <span className="mono">/{sg.command}</span>
                <span className="tag">{sg.kind}</span>
                <span className="muted slash-server">{sg.server}</span>
                {sg.description && <span className="muted slash-desc">{sg.description}</span>}
              </li>
            ))}
            <li className="slash-hint muted" role="presentation">
              {t('composer.hint')}
            </li>
          </ul>
        )}
        <ToolPicker />
        <textarea
          className="composer-input"
          data-testid="chat-input"
          aria-label={t('composer.command')}
          aria-autocomplete="list"
          aria-controls={showSuggestions ? 'slash-suggestions' : undefined}
          aria-expanded={showSuggestions}
          aria-activedescendant={showSuggestions ? `slash-suggestion-${activeIndex}` : undefined}
          placeholder={example}
          rows={1}
          spellCheck={false}
          autoComplete="off"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {running && (
          <button type="button" className="btn btn-danger" data-testid="chat-stop" onClick={() => void stopChat()}>
            {t('composer.stop')}
          </button>
        )}
        <button type="submit" className="btn btn-primary" data-testid="chat-send" disabled={text.trim() === ''}>
          {t('composer.send')}
        </button>
      </form>
      <ChatRouteLine />
    </>
  );
}
