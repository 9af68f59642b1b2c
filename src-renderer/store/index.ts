import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BridgeClient } from '../host/bridge-client';
import { createConversationsSlice } from './conversations-slice';
import { createProvidersSlice } from './providers-slice';
import { createTranscriptSlice } from './transcript-slice';
import { createConfigSlice } from './config-slice';
import { createHostSlice } from './host-slice';
import { createLogsSlice } from './logs-slice';
import { createProgressSlice } from './progress-slice';
import { createPromptsSlice } from './prompts-slice';
import { createRequestsSlice } from './requests-slice';
import { createResourcesSlice } from './resources-slice';
import { createServerPageSlice } from './server-page-slice';
import { createServersSlice } from './servers-slice';
import { createTrustSlice } from './trust-slice';
import { createConsentSlice } from './consent-slice';
import { createAuthSlice } from './auth-slice';
import { createAppSettingsSlice } from './app-settings-slice';
import { createInstallSlice } from './install-slice';
import { createSidebarSlice } from './sidebar-slice';
import { createAppsSlice } from './apps-slice';
import { createSkillsSlice } from './skills-slice';
import { createConversationToolsSlice } from './conversation-tools-slice';
import type { AppState } from './types';

export type { AppState } from './types';
export type AppStore = StoreApi<AppState>;

/** The one store, built from slices; the host API is injected so tests can pass a fake. */
export function createAppStore(host: BridgeClient): AppStore {
  return createStore<AppState>()((...a) => ({
    ...createHostSlice(host.connection())(...a),
    ...createServersSlice(host.api)(...a),
    ...createTranscriptSlice(host.api)(...a),
    ...createConversationsSlice(host.api)(...a),
    ...createProvidersSlice(host.api)(...a),
    ...createConfigSlice(host.api)(...a),
    ...createServerPageSlice(host.api)(...a),
    ...createResourcesSlice(host.api)(...a),
    ...createPromptsSlice(host.api)(...a),
    ...createLogsSlice(host.api)(...a),
    ...createProgressSlice(host.api)(...a),
    ...createRequestsSlice(host.api)(...a),
    ...createTrustSlice(host.api)(...a),
    ...createConsentSlice(host.api)(...a),
    ...createAuthSlice(host.api)(...a),
    ...createAppSettingsSlice(host.api)(...a),
    ...createInstallSlice(host.api)(...a),
    ...createSidebarSlice()(...a),
    ...createAppsSlice(host.api)(...a),
    ...createSkillsSlice(host.api)(...a),
    ...createConversationToolsSlice(host.api)(...a),
  }));
}
