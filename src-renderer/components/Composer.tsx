import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useApp } from '../hooks/useApp';
import type { AppState } from '../store';
import { canChat } from '../store/chat-slice';
import { ToolPicker } from './ToolPicker';

/** A placeholder that names a tool one can call right now. */
function exampleCommand(state: AppState): string {
  if (canChat(state.providers)) return 'Ask anything — or /tool {…} to call a tool directly';
  const tools = state.servers.filter((s) => s.status === 'ready').flatMap((s) => s.tools.map((t) => t.name));
  if (tools.includes('add')) return '/add {"a":2,"b":3}';
  const first = tools[0];
  return first ? `/${first} {…}` : 'Type /tool {"arg": value} once a server is ready';
}

export function Composer() {
  const [text, setText] = useState('');
  const [history, setHistory] = useState<string[]>([]);
  const [cursor, setCursor] = useState<number | undefined>(undefined);
  const submit = useApp((s) => s.submit);
  const example = useApp(exampleCommand);
  const running = useApp((s) => s.activeRunId !== undefined);
  const stopChat = useApp((s) => s.stopChat);

  const send = (event?: FormEvent): void => {
    event?.preventDefault();
    const line = text.trim();
    if (line === '') return;
    setHistory((h) => (h[h.length - 1] === line ? h : [...h, line]));
    setCursor(undefined);
    if (submit(line)) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      send(event);
      return;
    }
    // Up/Down walk through earlier commands when the box is a single line.
    if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && !text.includes('\n') && history.length > 0) {
      const last = history.length - 1;
      const next =
        event.key === 'ArrowUp'
          ? Math.max(0, (cursor ?? history.length) - 1)
          : cursor === undefined || cursor >= last
            ? undefined
            : cursor + 1;
      event.preventDefault();
      setCursor(next);
      setText(next === undefined ? '' : (history[next] ?? ''));
    }
  };

  return (
    <form className="composer" onSubmit={send}>
      <ToolPicker />
      <textarea
        className="composer-input"
        data-testid="chat-input"
        aria-label="Command"
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
          Stop
        </button>
      )}
      <button type="submit" className="btn btn-primary" data-testid="chat-send" disabled={text.trim() === ''}>
        Send
      </button>
    </form>
  );
}
