import type { HostMethods } from '../../../src-shared/host-api';
import type { ServerFleet } from '../servers/fleet';

export type ConsentChannel = 'servers:approve';

/** `servers:approve`: a person approved the exact launch a stdio entry's consent card showed (trust/consent.ts). */
export class ConsentService {
  readonly api: Pick<HostMethods, ConsentChannel>;

  constructor(fleet: ServerFleet) {
    this.api = {
      'servers:approve': (name, hash) => fleet.approve(name, hash),
    };
  }
}
