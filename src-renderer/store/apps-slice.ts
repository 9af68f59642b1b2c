import type { AppClosedEvent, AppFrame, AppPermissionName, AppSampleResult, UiAppInfo } from '../../src-shared/contract/apps';
import { maxAppContextBytes, maxAppContexts, type AppContextItem } from '../../src-shared/contract/chat';
import type { ReadResourceView } from '../../src-shared/contract/resources';
import type { ToolResult } from '../../src-shared/contract/tools';
import type { HostApi } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import { i18n } from '../i18n';
import type { Loadable } from './feature-types';
import { canChat } from './providers-slice';
import type { SliceCreator } from './types';

/** What an app asked to keep in the model's context (`ui/update-model-context`): one per app frame, replaced on update. */
export interface AppModelContext {
  /** The app instance it came from (the card's call id): a new update from it replaces this one. */
  key: string;
  server: string;
  tool: string;
  title: string;
  text: string;
}

type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * MCP Apps in the renderer: the host calls an app frame makes (each names its frame; the host knows its server), and
 * what apps put into the conversation (messages, model context).
 */
export interface AppsSlice {
  /** By conversation id ('' before the conversation has one). */
  appContexts: Record<string, AppModelContext[]>;
  setAppContext(context: AppModelContext): void;
  removeAppContext(conversationId: string, key: string): void;
  /** Those contexts went with a message: they leave the box (an app's later update is a new one). */
  dropAppContexts(conversationId: string, sent: readonly AppModelContext[]): void;
  openAppFrame(server: string, tool: string): Promise<AppFrame>;
  closeAppFrame(frameId: string): void;
  /** Told once when the host closes this frame itself (`apps:closed`: server stopped, flood, too many frames). */
  watchAppFrame(frameId: string, onClosed: (event: AppClosedEvent) => void): () => void;
  appCallTool(frameId: string, tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  appReadResource(frameId: string, uri: string): Promise<ReadResourceView>;
  /** The app's `sampling/createMessage`, under its server's sampling policy (the host checks the params). */
  appSample(frameId: string, params: Record<string, unknown>): Promise<AppSampleResult>;
  appLog(frameId: string, level: LogLevel, data: unknown, logger?: string): void;
  grantAppPermissions(server: string, permissions: AppPermissionName[]): Promise<AppPermissionName[]>;
  /**
   * `ui/message`: shown in the conversation as from the app; sent to the model as the next user message when one is
   * configured and no reply is running. False when it could be shown but not sent.
   */
  appMessage(title: string, text: string, source?: { server: string; tool: string }): Promise<boolean>;
  /** Opens an https page the person agreed to in the system browser; false where this window cannot (headless). */
  openUrlInShell(url: string): Promise<boolean>;
  /** The server page's Apps tab: each server's tools with a UI (`apps:list`), by server name. */
  appLists: Record<string, Loadable<UiAppInfo[]>>;
  loadAppList(server: string): Promise<void>;
  /**
   * The Apps tab's "Run the tool" (a tool with no required arguments): a direct call with no arguments under a call id
   * of its own, so the host's call registry holds its result like any other call's (and `calls:changed` tells every
   * window). Returns that id at once, and the call's answer.
   */
  runAppTool(server: string, tool: string): { callId: string; done: Promise<ToolResult> };
}

const logLevels = new Set<string>(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
export function appLogLevel(level: unknown): LogLevel {
  return typeof level === 'string' && logLevels.has(level) ? (level as LogLevel) : 'info';
}

export const createAppsSlice =
  (api: HostApi): SliceCreator<AppsSlice> =>
  (set, get) => {
    let nextCall = 1;
    const session = Math.random().toString(36).slice(2, 10);
    return {
      appContexts: {},
      setAppContext(context) {
        const conversation = get().activeConversationId ?? '';
        set((s) => {
          const list = (s.appContexts[conversation] ?? []).filter((c) => c.key !== context.key);
          return { appContexts: { ...s.appContexts, [conversation]: context.text === '' ? list : [...list, context] } };
        });
      },
      dropAppContexts(conversationId, sent) {
        set((s) => ({ appContexts: { ...s.appContexts, [conversationId]: (s.appContexts[conversationId] ?? []).filter((c) => !sent.includes(c)) } }));
      },
      removeAppContext(conversationId, key) {
        set((s) => ({ appContexts: { ...s.appContexts, [conversationId]: (s.appContexts[conversationId] ?? []).filter((c) => c.key !== key) } }));
      },
      openAppFrame: (server, tool) => api['apps:open']({ server, tool }),
      closeAppFrame(frameId) {
        // The frame is gone either way; the host forgets it when it hears (or when the connection ends).
        api['apps:close']({ frameId }).catch(() => undefined);
      },
      watchAppFrame(frameId, onClosed) {
        const off = api.on('apps:closed', (event) => {
          if (event.frameId !== frameId) return;
          off();
          onClosed(event);
        });
        return off;
      },
      async appCallTool(frameId, tool, args) {
        return api['apps:call-tool']({ frameId, tool, args, callId: `app-${session}-${nextCall++}` });
      },
      appReadResource: (frameId, uri) => api['apps:read-resource']({ frameId, uri }),
      appSample: (frameId, params) => api['apps:sample']({ frameId, params }),
      appLog(frameId, level, data, logger) {
        api['apps:log']({ frameId, level, data, ...(logger !== undefined ? { logger } : {}) }).catch(() => undefined);
      },
      grantAppPermissions: (server, permissions) => api['apps:grant']({ server, permissions }),
      async appMessage(title, text, source) {
        const { providers, activeRunId } = get();
        // Sent, it shows as the user message marked as from the app; otherwise as a notice from it.
        if (canChat(providers) && activeRunId === undefined && source !== undefined) {
          if (await get().sendChat(text, { fromApp: { ...source, title: title.slice(0, 500) } })) return true;
        }
        get().addNotice(text, 'info', i18n.t('apps.messageFrom', { title }));
        return false;
      },
      async openUrlInShell(url) {
        try {
          return (await api['shell:open-url'](url)).opened;
        } catch {
          return false;
        }
      },
      appLists: {},
      async loadAppList(server) {
        const previous = get().appLists[server]?.value;
        set((s) => ({ appLists: { ...s.appLists, [server]: previous ? { state: 'loading', value: previous } : { state: 'loading' } } }));
        try {
          const value = await api['apps:list']({ server });
          set((s) => ({ appLists: { ...s.appLists, [server]: { state: 'ok', value, at: Date.now() } } }));
        } catch (error) {
          const message = describeError(error).message;
          set((s) => ({ appLists: { ...s.appLists, [server]: previous ? { state: 'error', message, value: previous } : { state: 'error', message } } }));
        }
      },
      runAppTool(server, tool) {
        const callId = `apps-tab-${session}-${nextCall++}`;
        return { callId, done: api['tools:call']({ server, tool, args: {}, callId }) };
      },
    };
  };

/**
 * What goes with the next message of the apps' model context: the newest `maxAppContexts`, each text cut to
 * `maxAppContextBytes` of UTF-8 (what `chat:send` accepts).
 */
export function appContextToSend(contexts: readonly AppModelContext[]): AppContextItem[] {
  return contexts
    .filter((c) => c.text !== '')
    .slice(-maxAppContexts)
    .map((c) => ({ server: c.server, tool: c.tool, title: c.title.slice(0, 500), text: utf8Prefix(c.text, maxAppContextBytes) }));
}

function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  // A character cut in half decodes as U+FFFD: drop it.
  return new TextDecoder().decode(bytes.slice(0, maxBytes)).replace(/\uFFFD+$/, '');
}
