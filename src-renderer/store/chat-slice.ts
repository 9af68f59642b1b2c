import type { HostApi, ToolResult } from '../../src-shared/host-api';
import { HELP_TEXT, parseCommand, resolveTool } from '../command';
import { describeError } from '../host-client';
import type { SliceCreator } from './types';

export interface ToolRef {
  server: string;
  tool: string;
}

export type CallState = 'pending' | 'ok' | 'error';

export interface CallEntry {
  kind: 'call';
  id: number;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** What started it: the typed command, or undefined for the form. */
  command: string | undefined;
  state: CallState;
  startedAt: number;
  durationMs?: number;
  /** The tool's result (also for `isError: true`, whose content explains the failure). */
  result?: ToolResult;
  /** The call failed before the tool answered (HostCallError, disconnect). */
  failure?: { message: string; code?: string };
}

export interface NoticeEntry {
  kind: 'notice';
  id: number;
  tone: 'info' | 'error';
  command: string;
  message: string;
}

export type ChatEntry = CallEntry | NoticeEntry;

export interface ChatSlice {
  entries: ChatEntry[];
  /** The tool whose form is open. */
  selectedTool: ToolRef | undefined;
  /** Handles a line typed in the chat box. Returns true when the line was accepted (the box may be cleared). */
  submit(input: string): boolean;
  callTool(ref: ToolRef, args: Record<string, unknown>, command?: string): Promise<void>;
  selectTool(ref: ToolRef | undefined): void;
  clearChat(): void;
}

export const createChatSlice =
  (api: HostApi, now: () => number = () => performance.now()): SliceCreator<ChatSlice> =>
  (set, get) => {
    let nextId = 1;
    const notice = (command: string, message: string, tone: NoticeEntry['tone']): void => {
      const entry: NoticeEntry = { kind: 'notice', id: nextId++, tone, command, message };
      set((s) => ({ entries: [...s.entries, entry] }));
    };
    const update = (id: number, patch: Partial<CallEntry>): void => {
      set((s) => ({
        entries: s.entries.map((e) => (e.kind === 'call' && e.id === id ? { ...e, ...patch } : e)),
      }));
    };

    return {
      entries: [],
      selectedTool: undefined,

      submit(input) {
        const command = input.trim();
        const parsed = parseCommand(command);
        switch (parsed.kind) {
          case 'empty':
            return false;
          case 'help':
            notice(command, HELP_TEXT, 'info');
            return true;
          case 'text':
            notice(command, `Nothing to send that to yet. ${HELP_TEXT}`, 'info');
            return true;
          case 'invalid':
            notice(command, parsed.message, 'error');
            return false;
          case 'call': {
            const resolved = resolveTool(parsed.name, get().servers);
            if (!resolved.ok) {
              notice(command, resolved.message, 'error');
              return false;
            }
            void get().callTool({ server: resolved.server, tool: resolved.tool.name }, parsed.args, command);
            return true;
          }
        }
      },

      async callTool(ref, args, command) {
        const id = nextId++;
        const startedAt = now();
        const entry: CallEntry = { kind: 'call', id, ...ref, args, command, state: 'pending', startedAt };
        set((s) => ({ entries: [...s.entries, entry] }));
        try {
          const result = await api['tools:call']({ server: ref.server, tool: ref.tool, args });
          update(id, { state: result.isError === true ? 'error' : 'ok', result, durationMs: now() - startedAt });
        } catch (error) {
          update(id, { state: 'error', failure: describeError(error), durationMs: now() - startedAt });
        }
      },

      selectTool: (selectedTool) => set({ selectedTool }),
      clearChat: () => set({ entries: [] }),
    };
  };
