import type { StateCreator } from 'zustand/vanilla';
import type { ConversationsSlice } from './conversations-slice';
import type { ProvidersSlice } from './providers-slice';
import type { TranscriptSlice } from './transcript-slice';
import type { ConfigSlice } from './config-slice';
import type { HostSlice } from './host-slice';
import type { LogsSlice } from './logs-slice';
import type { ProgressSlice } from './progress-slice';
import type { PromptsSlice } from './prompts-slice';
import type { RequestsSlice } from './requests-slice';
import type { ResourcesSlice } from './resources-slice';
import type { ServerPageSlice } from './server-page-slice';
import type { ServersSlice } from './servers-slice';
import type { TrustSlice } from './trust-slice';
import type { ConsentSlice } from './consent-slice';
import type { InstallSlice } from './install-slice';
import type { AuthSlice } from './auth-slice';
import type { AppSettingsSlice } from './app-settings-slice';
import type { SidebarSlice } from './sidebar-slice';
import type { AppsSlice } from './apps-slice';
import type { SkillsSlice } from './skills-slice';
import type { ConversationToolsSlice } from './conversation-tools-slice';

export type AppState = HostSlice &
  ServersSlice &
  TranscriptSlice &
  ConversationsSlice &
  ProvidersSlice &
  ConfigSlice &
  ServerPageSlice &
  ResourcesSlice &
  PromptsSlice &
  LogsSlice &
  ProgressSlice &
  RequestsSlice &
  TrustSlice &
  ConsentSlice &
  AuthSlice &
  AppSettingsSlice &
  SidebarSlice &
  AppsSlice &
  SkillsSlice &
  ConversationToolsSlice &
  InstallSlice;

/** A slice sees the whole store (zustand's slices pattern). */
export type SliceCreator<T> = StateCreator<AppState, [], [], T>;
