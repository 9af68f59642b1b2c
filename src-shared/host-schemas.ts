import { appChannels } from './schemas/app';
import { appsChannels } from './schemas/apps';
import { authChannels } from './schemas/auth';
import { chatChannels } from './schemas/chat';
import { configChannels } from './schemas/config';
import { consentChannels } from './schemas/consent';
import { installChannels } from './schemas/install';
import { loggingChannels } from './schemas/logging';
import { promptsChannels } from './schemas/prompts';
import { requestsChannels } from './schemas/requests';
import { resourcesChannels } from './schemas/resources';
import { secretsChannels } from './schemas/secrets';
import { serversChannels } from './schemas/servers';
import { settingsChannels } from './schemas/settings';
import { skillsChannels } from './schemas/skills';
import { toolsChannels } from './schemas/tools';
import { traceChannels } from './schemas/trace';
import { trustChannels } from './schemas/trust';

/**
 * The argument schemas main (IPC gateway, headless bridge) parses untrusted calls with: one zod tuple per channel,
 * `noun:verb`, joined from each domain's ./schemas/<domain>.ts. Main parses before doing any work, since the renderer
 * is untrusted. A channel added to a domain's table is a compile error in ./host-api.ts (and so in every
 * implementation) until its result is declared in that domain's ./contract/<domain>.ts.
 */
export const hostChannels = {
  ...appChannels,
  ...serversChannels,
  ...configChannels,
  ...secretsChannels,
  ...toolsChannels,
  ...trustChannels,
  ...consentChannels,
  ...resourcesChannels,
  ...promptsChannels,
  ...loggingChannels,
  ...traceChannels,
  ...requestsChannels,
  ...authChannels,
  ...chatChannels,
  ...settingsChannels,
  ...installChannels,
  ...appsChannels,
  ...skillsChannels,
} as const;
