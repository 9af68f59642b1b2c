import { describe, expect, it } from 'vitest';
import { checkAuthorizationUrl, UnsafeAuthorizationUrlError } from './browser';

describe('checkAuthorizationUrl (the browser step never opens what a hostile server picks)', () => {
  it.each([
    'https://auth.example.com/authorize?response_type=code&client_id=a&scope=read+write&state=x',
    'http://127.0.0.1:8080/authorize?x=1',
    'http://localhost:9000/auth',
    'http://[::1]:9000/auth',
  ])('opens %s', (url) => {
    expect(checkAuthorizationUrl(url).href).toBe(new URL(url).href);
  });

  it.each([
    ['file:///etc/passwd', /uses file:/],
    ['javascript:alert(1)', /uses javascript:/],
    ['http://auth.example.com/authorize', /uses http:/],
    ['ms-settings:display', /uses ms-settings:/],
    ['https://evil.example/authorize?x=$(touch /tmp/pwned)', /shell would interpret/],
    ['https://evil.example/a;id', /shell would interpret/],
    ['https://evil.example/a`id`', /shell would interpret/],
    ['https://evil.example/a|id', /shell would interpret/],
    ['https://user:pass@evil.example/a', /user name or password/],
    ['not a url', /not a URL/],
  ])('refuses %s', (url, why) => {
    expect(() => checkAuthorizationUrl(url)).toThrow(UnsafeAuthorizationUrlError);
    expect(() => checkAuthorizationUrl(url)).toThrow(why);
  });
});
