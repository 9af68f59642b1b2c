import type { HostApi, ToolResult } from '../../src-shared/host-api';
import { HELP_TEXT, parseCommand, resolveTool } from '../command';
import { describeError } from '../host-client';
import type { SliceCreator } from './types';

export interface ToolRef {
  server: string;
  tool: string;
}

export type CallState = 'pending' | 'ok' | 'error' | 'cancelled';

export interface CallEntry {
  kind: 'call';
  id: number;
  /** Sent with the call so `tools:cancel` can abort it. */
  callId: string;
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
  /** The call failed before the tool answered (HostCallError, disconnect, cancelled). */
  failure?: { message: string; code?: string };
  cancelling?: boolean;
  cancelError?: string;
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
  /** Asks main to abort a running call; the card settles when the call itself returns. */
  cancelCall(id: number): Promise<void>;
  selectTool(ref: ToolRef | undefined): void;
  clearChat(): void;
}

export const createChatSlice =
  (api: HostApi, now: () => number = () => performance.now()): SliceCreator<ChatSlice> =>
  (set, get) => {
    let nextId = 1;
    // Call ids are unique per page load, so two windows on one host never cancel each other's calls.
    const session = Math.random().toString(36).slice(2, 10);
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
        const callId = `${session}-${id}`;
        const startedAt = now();
        const entry: CallEntry = { kind: 'call', id, callId, ...ref, args, command, state: 'pending', startedAt };
        set((s) => ({ entries: [...s.entries, entry] }));
        try {
          const result = await api['tools:call']({ server: ref.server, tool: ref.tool, args, callId });
          update(id, { state: result.isError === true ? 'error' : 'ok', result, durationMs: now() - startedAt });
        } catch (error) {
          const failure = describeError(error);
          const state = failure.code === 'cancelled' ? 'cancelled' : 'error';
          update(id, { state, failure, durationMs: now() - startedAt });
        }
      },

      async cancelCall(id) {
        const entry = get().entries.find((e): e is CallEntry => e.kind === 'call' && e.id === id);
        if (!entry || entry.state !== 'pending' || entry.cancelling) return;
        update(id, { cancelling: true });
        try {
          await api['tools:cancel'](entry.callId);
        } catch (error) {
          update(id, { cancelling: false, cancelError: describeError(error).message });
        }
      },

      selectTool: (selectedTool) => set({ selectedTool }),
      clearChat: () => set({ entries: [] }),
    };
  };
