import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { MessageView } from './MessageView';
import { useApp } from '../../store/useApp';
import { canChat } from '../../store/providers-slice';
import type { ChatEntry } from '../../store/transcript-entries';
import { CallCard } from './CallCard';
import { NoticeCard } from './NoticeCard';
import { PromptCard } from '../prompts/PromptCard';
import { Trans } from 'react-i18next';
import { providerHint, useT } from '../../i18n';
import { callIdsOf } from '../requests/placement';
import { shownByChat } from '../../store/requests-slice';

/** The log, virtualised: only the entries on screen (and a few around) are in the DOM, whatever its length. */
export function ChatLog() {
  const entries = useApp((s) => s.entries);
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    overscan: 4,
    getItemKey: (index) => entries[index]?.id ?? index,
  });

  // Follow the end while the reader is there (new entries, streaming text); leave them be when they scrolled up.
  const last = entries[entries.length - 1];
  useLayoutEffect(() => {
    if (stuck.current && entries.length > 0) virtualizer.scrollToIndex(entries.length - 1, { align: 'end' });
  }, [entries.length, last, virtualizer]);
  // A request a server sends shows on the card of the call that caused it: bring that card into view when it arrives
  // (the log is virtualised, so a card scrolled away is not there to show it).
  const pending = useApp((s) => s.pendingRequests);
  const seen = useRef(new Set<string>());
  useEffect(() => {
    const fresh = pending.filter((r) => !seen.current.has(r.id));
    seen.current = new Set(pending.map((r) => r.id));
    const callId = fresh.findLast((r) => r.origin.callId !== undefined && !shownByChat(r))?.origin.callId;
    if (callId === undefined) return;
    const index = entries.findIndex((e) => callIdsOf([e]).has(callId));
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [pending, entries, virtualizer]);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = (): void => {
      stuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < 60;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <div className="chat-log" ref={scroller} role="log" aria-label={t('chatLog.label')} aria-live="polite" data-testid="chat-log">
      {entries.length === 0 ? (
        <EmptyChat />
      ) : (
        <div className="chat-log-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const entry = entries[item.index];
            return (
              <div
                key={item.key}
                className="chat-log-item"
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {entry && <Entry entry={entry} />}
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

function Entry({ entry }: { entry: ChatEntry }) {
  switch (entry.kind) {
    case 'call':
      return <CallCard entry={entry} />;
    case 'notice':
      return <NoticeCard entry={entry} />;
    case 'message':
      return <MessageView message={entry.message} />;
    case 'prompt':
      return <PromptCard entry={entry} />;
  }
}

function EmptyChat() {
  const providers = useApp((s) => s.providers);
  const openProviderSettings = useApp((s) => s.openProviderSettings);
  const t = useT();
  if (canChat(providers)) {
    return (
      <div className="chat-empty" data-testid="chat-empty">
        <h2>{t('chatLog.askAnything')}</h2>
        <p>
          <Trans i18nKey="chatLog.modelCanUse" values={{ model: providers?.model ?? '', example: '/add {"a":2,"b":3}' }} components={{ code: <code /> }} />
        </p>
      </div>
    );
  }
  return (
    <div className="chat-empty" data-testid="chat-empty">
      <h2>{t('chatLog.callTool')}</h2>
      <p>
        <Trans i18nKey="chatLog.typeBelow" values={{ example: '/add {"a":2,"b":3}' }} components={{ code: <code /> }} />
      </p>
      <p className="muted">
        <Trans i18nKey="chatLog.serverPicks" components={{ code: <code /> }} />
      </p>
      {providers?.hint && (
        <p className="muted" data-testid="no-provider-hint">
          {t('chatLog.directMode')} {providerHint(providers)}{' '}
          <button type="button" className="btn btn-small" data-testid="add-provider" onClick={openProviderSettings}>
            {t('chatLog.addProvider')}
          </button>
        </p>
      )}
    </div>
  );
}
