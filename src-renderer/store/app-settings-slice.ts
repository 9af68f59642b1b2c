import type { AppSettingsPatch, AppSettingsView, HostApi } from '../../src-shared/host-api';
import { describeError } from '../host/bridge-client';
import { applyTheme, rememberedSidebarCollapsed, rememberSidebarCollapsed } from '../styles/theme';
import type { SliceCreator } from './types';

/** The app settings (Settings screen: env allow-list, supervision, default roots, theme) and the layout's own state. */
export interface AppSettingsSlice {
  appSettings: AppSettingsView | undefined;
  appSettingsError: string | undefined;
  loadAppSettings(): Promise<void>;
  /** Saves a change; resolves to the host's refusal (which field, why), or undefined when saved. */
  updateAppSettings(patch: AppSettingsPatch): Promise<string | undefined>;
  /** The servers sidebar folded to a strip (remembered per browser). */
  sidebarCollapsed: boolean;
  toggleSidebar(): void;
}

export const createAppSettingsSlice =
  (api: HostApi): SliceCreator<AppSettingsSlice> =>
  (set, get) => ({
    appSettings: undefined,
    appSettingsError: undefined,
    async loadAppSettings() {
      try {
        const appSettings = await api['settings:get']();
        applyTheme(appSettings.theme);
        set({ appSettings, appSettingsError: undefined });
      } catch (error) {
        set({ appSettingsError: describeError(error).message });
      }
    },
    async updateAppSettings(patch) {
      // The theme shows at once (and the switch with it); a refusal puts the stored one back.
      const before = get().appSettings;
      if (patch.theme !== undefined) {
        applyTheme(patch.theme);
        if (before) set({ appSettings: { ...before, theme: patch.theme } });
      }
      try {
        const appSettings = await api['settings:update'](patch);
        set({ appSettings });
        return undefined;
      } catch (error) {
        if (patch.theme !== undefined && before) {
          applyTheme(before.theme);
          set({ appSettings: before });
        }
        return describeError(error).message;
      }
    },
    sidebarCollapsed: rememberedSidebarCollapsed(),
    toggleSidebar() {
      const sidebarCollapsed = !get().sidebarCollapsed;
      rememberSidebarCollapsed(sidebarCollapsed);
      set({ sidebarCollapsed });
    },
  });
