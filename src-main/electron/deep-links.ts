import type { App } from 'electron';
import { deepLinkScheme } from '../core/install/deep-link';

/*
 * `switchboard://install?…` links: the app registers itself for the scheme, and hands every link the OS gives it —
 * at launch (argv), from a second launch (Windows, Linux: argv of 'second-instance') or through 'open-url' (macOS) —
 * to `deliver`, which offers it to the UI's install dialog. Nothing is added before the person confirms there.
 */

/** The switchboard:// links in a command line. */
export function linksInArgv(argv: readonly string[]): string[] {
  return argv.filter((arg) => arg.toLowerCase().startsWith(`${deepLinkScheme}://`));
}

export function registerDeepLinks(app: App, deliver: (url: string) => void): void {
  if (!app.isDefaultProtocolClient(deepLinkScheme)) {
    // An unpackaged app is `electron path/to/entry`: the OS must start it with that entry too.
    const registered =
      process.defaultApp && process.argv[1] !== undefined
        ? app.setAsDefaultProtocolClient(deepLinkScheme, process.execPath, [process.argv[1]])
        : app.setAsDefaultProtocolClient(deepLinkScheme);
    if (!registered) console.error(`[switchboard] could not register as the handler of ${deepLinkScheme}:// links`);
  }
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deliver(url);
  });
  app.on('second-instance', (_event, argv) => {
    for (const url of linksInArgv(argv)) deliver(url);
  });
  for (const url of linksInArgv(process.argv)) deliver(url);
}
