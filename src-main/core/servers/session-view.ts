import type { Client } from '@modelcontextprotocol/client';
import type { ServerCapabilitiesView, ServerView } from '../../../src-shared/host-api';
import { currentInstructions } from '../trust/pins';

export type SessionView = Pick<ServerView, 'protocolVersion' | 'era' | 'serverInfo' | 'capabilities' | 'instructions'>;

/** What a connected session adds to its server's view: era, version, identity, capabilities, instructions. */
export function sessionView(client: Client | undefined): SessionView {
  if (!client) return {};
  const version = client.getNegotiatedProtocolVersion();
  const era = client.getProtocolEra();
  const serverInfo = client.getServerVersion();
  const capabilities = client.getServerCapabilities();
  const instructions = currentInstructions(client);
  return {
    ...(version !== undefined ? { protocolVersion: version } : {}),
    ...(era !== undefined ? { era } : {}),
    ...(serverInfo ? { serverInfo: { name: serverInfo.name, version: serverInfo.version } } : {}),
    ...(capabilities ? { capabilities: capabilitiesView(capabilities) } : {}),
    ...(instructions !== undefined && instructions !== '' ? { instructions } : {}),
  };
}

function capabilitiesView(capabilities: NonNullable<ReturnType<Client['getServerCapabilities']>>): ServerCapabilitiesView {
  return {
    tools: capabilities.tools !== undefined,
    resources: capabilities.resources !== undefined,
    subscribe: capabilities.resources?.subscribe === true,
    prompts: capabilities.prompts !== undefined,
    completions: capabilities.completions !== undefined,
    logging: capabilities.logging !== undefined,
    tasks: capabilities.tasks !== undefined || capabilities.extensions?.['io.modelcontextprotocol/tasks'] !== undefined,
    skills: capabilities.extensions?.['io.modelcontextprotocol/skills'] !== undefined,
  };
}
