import { describe, expect, it } from 'vitest';
import { linksInArgv } from './deep-links';

describe('deep links in a command line', () => {
  it('takes only switchboard:// arguments', () => {
    expect(
      linksInArgv([
        '/opt/Switchboard/switchboard',
        '--no-sandbox',
        'switchboard://install?registry=a.b/c',
        'https://x',
        'SWITCHBOARD://install?name=x&config=e30',
      ]),
    ).toEqual(['switchboard://install?registry=a.b/c', 'SWITCHBOARD://install?name=x&config=e30']);
  });
});
