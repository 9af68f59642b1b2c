import { AuditDialog } from './AuditDialog';
import { ChatToolbar } from './ChatToolbar';
import { HistorySidebar } from './HistorySidebar';
import { useChatSync } from './useChatSync';
import './chat.css';
import { useApp } from '../../store/useApp';
import { useT } from '../../i18n';
import { ChatLog } from './ChatLog';
import { Composer } from './Composer';
import { ConversationToolsBar } from './ConversationTools';
import { ToolForm } from './ToolForm';
import { SlashPromptForm } from '../prompts/SlashPromptForm';
import { AttachmentChips } from '../resources/AttachmentChips';
import { AppContextChips } from '../apps/AppContextChips';

export function ChatPanel() {
  useChatSync();
  const historyOpen = useApp((s) => s.historyOpen);
  const dialog = useApp((s) => s.chatDialog);
  const pageOpen = useApp((s) => s.serverPage !== undefined);
  const t = useT();
  return (
    <main className="chat" aria-label={t('chat.label')} hidden={pageOpen}>
      <ChatToolbar />
      <div className="chat-main">
        {historyOpen && <HistorySidebar />}
        <div className="chat-column">
          <ChatLog />
          <div className="chat-bottom">
            <ToolForm />
            <SlashPromptForm />
            <AttachmentChips />
            <AppContextChips />
            <ConversationToolsBar />
            <Composer />
          </div>
        </div>
      </div>
      {dialog === 'audit' && <AuditDialog />}
    </main>
  );
}
