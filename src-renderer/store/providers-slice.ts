import type { AuditEntry, ChatSettingsPatch, ChatSettingsView, ProviderConfigureRequest, ProviderId, ProvidersView } from '../../src-shared/contract/chat';
import type { HostApi } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import type { SliceCreator } from './types';

/** What saving a provider led to: whether it can be used now, and the model to start chatting with. */
export interface ProviderSaved {
  configured: boolean;
  /** `provider:model`: the chosen model when it is this provider's, else the first model it lists. */
  model?: string;
}

/**
 * The model side of the chat: the LLM providers and their models, the chat settings (model, approval mode, tools
 * offered) and the audit log of what those settings let run; the providers and audit dialogs.
 */
export interface ProvidersSlice {
  providers: ProvidersView | undefined;
  chatSettings: ChatSettingsView | undefined;
  /** Model ids each configured provider lists (its `/models`), fetched when the picker opens. */
  providerModels: Partial<Record<ProviderId, string[]>>;
  audit: AuditEntry[] | undefined;
  /** Which chat dialog is open. */
  chatDialog: 'audit' | undefined;
  /** A Settings section to bring into view when the Settings screen shows (the chat's link to the providers). */
  settingsTarget: 'providers' | undefined;
  /** Loads the providers and the chat settings. */
  refreshProviders(): Promise<void>;
  setModel(spec: string): Promise<void>;
  updateChatSettings(patch: ChatSettingsPatch): Promise<void>;
  configureProvider(request: ProviderConfigureRequest): Promise<ProviderSaved>;
  /** From a provider just set up to the chat: `model` chosen (when given) and the chat screen shown. */
  startChatWith(model: string | undefined): Promise<void>;
  /** The Settings screen at its model providers. */
  openProviderSettings(): void;
  settingsTargetShown(): void;
  /** Confirms the working folder's `.env` choices the person saw (name → value): recorded in main, then used. */
  confirmDotenv(values: Record<string, string>): Promise<void>;
  loadAudit(): Promise<void>;
  loadProviderModels(): Promise<void>;
  setChatDialog(dialog: ProvidersSlice['chatDialog']): void;
}

/** Whether typed text can go to a model now. */
export const canChat = (providers: ProvidersView | undefined): boolean =>
  providers !== undefined && providers.hint === undefined && providers.model !== undefined;

export const createProvidersSlice =
  (api: HostApi): SliceCreator<ProvidersSlice> =>
  (set, get) => ({
    providers: undefined,
    chatSettings: undefined,
    providerModels: {},
    audit: undefined,
    chatDialog: undefined,
    settingsTarget: undefined,

    async refreshProviders() {
      try {
        const [providers, chatSettings] = await Promise.all([api['providers:list'](), api['chat:settings']()]);
        set({ providers, chatSettings });
      } catch (error) {
        console.warn('chat settings could not be read', describeError(error).message);
      }
    },

    async setModel(spec) {
      await get().updateChatSettings({ model: spec });
    },

    async updateChatSettings(patch) {
      try {
        // Kept at once: a save that lands while the providers are listed (a toolset added right after) is not undone.
        set({ chatSettings: await api['chat:update-settings'](patch) });
        set({ providers: await api['providers:list']() });
      } catch (error) {
        get().addNotice(describeError(error).message);
      }
    },

    async configureProvider(request) {
      const providers = await api['providers:configure'](request);
      set({ providers });
      // Setting up a provider leads straight to chatting: the picker offers its models, and when the chosen
      // model cannot be used (another provider's, not set up), the new provider's first model is taken.
      const view = providers.providers.find((p) => p.id === request.id);
      if (!view?.configured) return { configured: false };
      await get().loadProviderModels();
      const first = get().providerModels[request.id]?.[0] ?? view.models[0];
      if (get().providers?.hint !== undefined && first !== undefined) await get().setModel(`${request.id}:${first}`);
      const current = get().providers?.model;
      const model = current?.startsWith(`${request.id}:`) === true ? current : first !== undefined ? `${request.id}:${first}` : undefined;
      return { configured: true, ...(model !== undefined ? { model } : {}) };
    },

    async startChatWith(model) {
      if (model !== undefined && model !== get().providers?.model) await get().setModel(model);
      get().closeServerPage();
      get().setScreen('chat');
    },

    openProviderSettings() {
      set({ settingsTarget: 'providers' });
      get().setScreen('settings');
    },

    settingsTargetShown: () => set({ settingsTarget: undefined }),

    async confirmDotenv(values) {
      try {
        set({ providers: await api['providers:confirm-dotenv']({ values }) });
      } catch (error) {
        get().addNotice(describeError(error).message);
      }
    },

    async loadProviderModels() {
      const configured = (get().providers?.providers ?? []).filter((p) => p.configured);
      const lists = await Promise.all(configured.map(async (p) => [p.id, await api['providers:models'](p.id).catch(() => p.models)] as const));
      set({ providerModels: Object.fromEntries(lists) });
    },

    async loadAudit() {
      try {
        set({ audit: await api['audit:list']({ limit: 500 }) });
      } catch (error) {
        get().addNotice(describeError(error).message);
      }
    },

    setChatDialog: (chatDialog) => {
      set({ chatDialog });
      if (chatDialog === 'audit') void get().loadAudit();
    },
  });
