import { describe, expect, it, vi } from 'vitest';
import { hostChannels } from '../../../src-shared/host-schemas';
import { isHttpsUrl, openUrlApi } from './open-url';

describe('shell:open-url', () => {
  it('hands an https URL to the desktop shell and says whether it opened', async () => {
    const open = vi.fn(async () => true);
    await expect(openUrlApi(open)['shell:open-url']('https://example.com/consent?x=1')).resolves.toEqual({
      opened: true,
      url: 'https://example.com/consent?x=1',
    });
    expect(open).toHaveBeenCalledWith('https://example.com/consent?x=1');
  });

  it('headless (no shell): opened false, the URL returned to be shown as a link', async () => {
    await expect(openUrlApi(undefined)['shell:open-url']('https://example.com/')).resolves.toEqual({ opened: false, url: 'https://example.com/' });
  });

  it('never opens anything but https, even if the argument schema were bypassed', async () => {
    const open = vi.fn(async () => true);
    for (const url of ['http://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      await expect(openUrlApi(open)['shell:open-url'](url)).resolves.toMatchObject({ opened: false });
    }
    expect(open).not.toHaveBeenCalled();
    expect(isHttpsUrl('https://a.example')).toBe(true);
  });

  it('the channel schema refuses non-https URLs at the boundary', () => {
    const schema = hostChannels['shell:open-url'];
    expect(schema.safeParse(['https://example.com/a']).success).toBe(true);
    expect(schema.safeParse(['http://example.com/a']).success).toBe(false);
    expect(schema.safeParse(['file:///etc/passwd']).success).toBe(false);
  });
});
