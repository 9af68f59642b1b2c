import { trustToolsRequestSchema } from '../../../src-shared/schemas/trust';
import type { HostMethods } from '../../../src-shared/host-api';
import type { ServerFleet } from '../servers/fleet';

export type TrustChannel = 'tools:trust';

/**
 * Accepting tool definitions that need review (changed, new, or hiding text): `tools:trust` pins the current
 * definitions of a server's tools (those named, or all that need review) and its instructions. "Keep disabled" is
 * doing nothing: the tool stays out of the model's reach until it is accepted.
 */
export class TrustService {
  readonly api: Pick<HostMethods, TrustChannel>;

  constructor(fleet: ServerFleet) {
    this.api = {
      'tools:trust': async (request) => {
        const { server, tools } = trustToolsRequestSchema.parse(request);
        const trusted = fleet.get(server).features.tools.trust(tools);
        return { server, trusted };
      },
    };
  }
}
