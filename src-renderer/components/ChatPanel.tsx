import { ChatLog } from './ChatLog';
import { Composer } from './Composer';
import { ToolForm } from './ToolForm';

export function ChatPanel() {
  return (
    <main className="chat" aria-label="Chat">
      <ChatLog />
      <div className="chat-bottom">
        <ToolForm />
        <Composer />
      </div>
    </main>
  );
}
