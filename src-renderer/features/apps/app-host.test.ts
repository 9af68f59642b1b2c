import { buildAllowAttribute } from '@modelcontextprotocol/ext-apps/app-bridge';
import { describe, expect, it } from 'vitest';
import {
  frameGone,
  availableDisplayModes,
  boundedHeight,
  buildHostContext,
  checkAppLink,
  contentText,
  hostStyleVariables,
  inlineHeight,
  permissionsMissing,
  permissionsObject,
  toCallToolResult,
} from './app-host';

describe('checkAppLink', () => {
  it('accepts https anywhere and names its host', () => {
    expect(checkAppLink('https://modelcontextprotocol.io/docs?a=1')).toEqual({
      ok: true,
      url: 'https://modelcontextprotocol.io/docs?a=1',
      host: 'modelcontextprotocol.io',
      https: true,
    });
  });
  it('accepts http only on this machine', () => {
    expect(checkAppLink('http://127.0.0.1:8080/x')).toMatchObject({ ok: true, host: '127.0.0.1:8080', https: false });
    expect(checkAppLink('http://localhost/')).toMatchObject({ ok: true, https: false });
    expect(checkAppLink('http://[::1]:3000/')).toMatchObject({ ok: true, https: false });
    expect(checkAppLink('http://example.com/')).toEqual({ ok: false, reason: 'scheme' });
    // A look-alike of loopback is another host.
    expect(checkAppLink('http://127.0.0.1.evil.example/')).toEqual({ ok: false, reason: 'scheme' });
  });
  it('refuses other schemes, credentials in the URL and non-strings', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'ftp://example.com/']) {
      expect(checkAppLink(url)).toEqual({ ok: false, reason: 'scheme' });
    }
    expect(checkAppLink('https://trusted.example@evil.example/')).toEqual({ ok: false, reason: 'invalid' });
    expect(checkAppLink('not a url')).toEqual({ ok: false, reason: 'invalid' });
    expect(checkAppLink(42)).toEqual({ ok: false, reason: 'invalid' });
    expect(checkAppLink(`https://a.example/${'x'.repeat(9000)}`)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('buildHostContext', () => {
  it('says what the spec asks: theme, styles, locale, time zone, platform, display modes, container', () => {
    const ctx = buildHostContext({
      theme: 'dark',
      locale: 'zh-CN',
      timeZone: 'Asia/Shanghai',
      platform: 'web',
      displayMode: 'inline',
      container: { width: 612.4, maxHeight: 720 },
      variables: hostStyleVariables((name) => (name === '--panel' ? ' light-dark(#fff, #161a21) ' : '')),
    });
    expect(ctx).toMatchObject({
      theme: 'dark',
      locale: 'zh-CN',
      timeZone: 'Asia/Shanghai',
      platform: 'web',
      displayMode: 'inline',
      availableDisplayModes: ['inline', 'fullscreen', 'pip'],
      containerDimensions: { width: 612, maxHeight: 720 },
    });
    expect(ctx.styles?.variables).toEqual({ '--color-background-primary': 'light-dark(#fff, #161a21)' });
    // Its own copy: the app's answer cannot change the host's list.
    expect(ctx.availableDisplayModes).not.toBe(availableDisplayModes);
  });
});

describe('boundedHeight', () => {
  it('follows the app within bounds, and ignores what is not a number', () => {
    expect(boundedHeight(300.2, 100)).toBe(301);
    expect(boundedHeight(1e9, 100)).toBe(inlineHeight.max);
    expect(boundedHeight(-5, 100)).toBe(inlineHeight.min);
    expect(boundedHeight(Number.NaN, 100)).toBe(100);
    expect(boundedHeight('500', 100)).toBe(100);
    expect(boundedHeight(undefined, 100)).toBe(100);
  });
});

describe('permissions', () => {
  it('only granted permissions reach the frame’s allow attribute', () => {
    expect(buildAllowAttribute(permissionsObject(['camera', 'clipboardWrite']))).toBe('camera; clipboard-write');
    expect(buildAllowAttribute(permissionsObject([]))).toBe('');
    expect(permissionsMissing(['camera', 'microphone'], ['camera'])).toEqual(['microphone']);
  });
});

describe('contentText', () => {
  it('joins text blocks, names the rest, adds structured content', () => {
    expect(
      contentText(
        [
          { type: 'text', text: 'hello' },
          { type: 'image', data: 'AA==', mimeType: 'image/png' },
          { type: 'resource_link', uri: 'ui://x', name: 'x' },
        ],
        { n: 1 },
      ),
    ).toBe('hello\n\n[image]\n\n[x: ui://x]\n\n{"n":1}');
    expect(contentText(undefined)).toBe('');
  });
});

describe('toCallToolResult', () => {
  it('keeps structured content, _meta and isError; a resource without text or blob gets empty text', () => {
    expect(
      toCallToolResult({
        content: [
          { type: 'text', text: 't' },
          { type: 'resource', resource: { uri: 'a://b' } },
        ],
        structuredContent: { time: 'now' },
        isError: true,
        _meta: { k: 1 },
      }),
    ).toEqual({
      content: [
        { type: 'text', text: 't' },
        { type: 'resource', resource: { uri: 'a://b', text: '' } },
      ],
      structuredContent: { time: 'now' },
      isError: true,
      _meta: { k: 1 },
    });
  });
});

describe('frameGone', () => {
  it('is true for the reasons that mean the host closed the frame, false for limits it may recover from', () => {
    for (const reason of ['app-flood', 'server-stopped', 'too-many-frames', 'host-stopped', 'closed', 'unknown-frame'])
      expect(frameGone({ reason })).toBe(true);
    for (const reason of ['app-rate-limit', 'app-busy', 'app-too-large']) expect(frameGone({ reason })).toBe(false);
    expect(frameGone(undefined)).toBe(false);
    expect(frameGone({ reason: 3 })).toBe(false);
  });
});
