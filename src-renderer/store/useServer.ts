import type { ServerView } from '../../src-shared/host-api';
import { useApp } from './useApp';

export function useServer(name: string): ServerView | undefined {
  return useApp((s) => s.servers.find((server) => server.name === name));
}
