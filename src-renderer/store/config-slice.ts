import type { ServerEntry } from '../../src-shared/schemas/config';
import type { ConfigText, HostApi, HostArgs, HostResults, ImportPreviewView, ImportResultView, Unsubscribe } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import type { SliceCreator } from './types';

export type Screen = 'chat' | 'servers' | 'settings';
export type ServersMode = 'list' | 'raw' | 'catalogue';

/** A request to put the raw editor's cursor at a place (the banner's "open at line"); `seq` makes repeats new. */
export interface EditorJump {
  line: number;
  column: number;
  seq: number;
}

/** Unsaved raw-editor text kept while the editor is not on screen, with the file version it was based on. */
export interface EditorDraft {
  text: string;
  base: ConfigText;
}

/**
 * The config screens: which screen is shown, the config file as on disk (for the raw editor and the forms),
 * secret names, and thin wrappers over the config channels. Wrappers throw what the host threw, so a form can
 * show it where the user is looking.
 */
export interface ConfigSlice {
  screen: Screen;
  serversMode: ServersMode;
  editorJump: EditorJump | undefined;
  /** The server whose form is open: a name, `''` for a new one, undefined for none. */
  editing: string | undefined;
  /** The config file as main last reported it (`config:read` / `config:changed`). */
  configText: ConfigText | undefined;
  configTextError: string | undefined;
  editorDraft: EditorDraft | undefined;
  secretNames: string[];
  secretsLoaded: boolean;
  secretsError: string | undefined;

  setScreen(screen: Screen): void;
  setServersMode(mode: ServersMode): void;
  /** Shows the raw editor with the cursor at a line. */
  openEditorAt(line: number, column: number): void;
  openForm(name: string | undefined): void;
  setConfigText(text: ConfigText): void;
  setEditorDraft(draft: EditorDraft | undefined): void;
  /** Fetches the file now and keeps following `config:changed`; returns the unsubscribe. */
  followConfig(): Unsubscribe;
  loadConfig(): Promise<void>;
  saveConfig(text: string, baseHash: string): Promise<ConfigText>;
  upsertServer(name: string, entry: ServerEntry, previousName?: string): Promise<void>;
  removeServer(name: string): Promise<void>;
  setServerEnabled(name: string, enabled: boolean): Promise<void>;
  exportConfig(names?: string[]): Promise<string>;
  importPreview(source: string): Promise<ImportPreviewView>;
  importApply(request: HostArgs<'config:import-apply'>[0]): Promise<ImportResultView>;
  openShell(target: 'config' | 'logs'): Promise<HostResults['shell:open']>;
  loadSecrets(): Promise<void>;
  setSecret(name: string, value: string): Promise<void>;
  deleteSecret(name: string): Promise<void>;
}

export const createConfigSlice =
  (api: HostApi): SliceCreator<ConfigSlice> =>
  (set, get) => {
    // Bumped by every pushed config: a fetch that started before it is older, so dropped.
    let configEpoch = 0;
    let jumpSeq = 0;
    const refreshSecrets = async (): Promise<void> => {
      try {
        set({ secretNames: await api['secrets:list'](), secretsLoaded: true, secretsError: undefined });
      } catch (error) {
        set({ secretsError: describeError(error).message });
      }
    };
    return {
      screen: 'chat',
      serversMode: 'list',
      editorJump: undefined,
      editing: undefined,
      configText: undefined,
      configTextError: undefined,
      editorDraft: undefined,
      secretNames: [],
      secretsLoaded: false,
      secretsError: undefined,

      setScreen: (screen) => set({ screen }),
      setServersMode: (serversMode) => set({ serversMode }),
      openEditorAt(line, column) {
        jumpSeq += 1;
        set({ screen: 'servers', serversMode: 'raw', editorJump: { line, column, seq: jumpSeq } });
      },
      openForm: (editing) => set({ editing, ...(editing !== undefined ? { screen: 'servers', serversMode: 'list' } : {}) }),
      setConfigText: (configText) => set({ configText, configTextError: undefined }),
      setEditorDraft: (editorDraft) => set({ editorDraft }),

      followConfig() {
        const offConfig = api.on('config:changed', (text) => {
          configEpoch += 1;
          get().setConfigText(text);
        });
        // The secret names follow every change, whoever made it (another window or tab, the CLI).
        const offSecrets = api.on('secrets:changed', ({ names }) => set({ secretNames: names, secretsLoaded: true, secretsError: undefined }));
        void get().loadConfig();
        return () => {
          offConfig();
          offSecrets();
        };
      },
      async loadConfig() {
        const at = configEpoch;
        try {
          const text = await api['config:read']();
          if (at === configEpoch) get().setConfigText(text);
        } catch (error) {
          set({ configTextError: describeError(error).message });
        }
      },
      async saveConfig(text, baseHash) {
        const saved = await api['config:save']({ text, baseHash });
        configEpoch += 1;
        get().setConfigText(saved);
        return saved;
      },
      upsertServer: (name, entry, previousName) => api['servers:upsert']({ name, entry, ...(previousName !== undefined ? { previousName } : {}) }),
      removeServer: (name) => api['servers:remove'](name),
      setServerEnabled: (name, enabled) => api['servers:set-enabled'](name, enabled),
      exportConfig: (names) => api['config:export'](names === undefined ? {} : { names }),
      importPreview: (source) => api['config:import-preview']({ source }),
      async importApply(request) {
        const result = await api['config:import-apply'](request);
        if (result.secretsStored.length > 0) await refreshSecrets();
        return result;
      },
      openShell: (target) => api['shell:open'](target),
      loadSecrets: refreshSecrets,
      async setSecret(name, value) {
        await api['secrets:set'](name, value);
        await refreshSecrets();
      },
      async deleteSecret(name) {
        await api['secrets:delete'](name);
        await refreshSecrets();
      },
    };
  };
