// `npm run package:qa`: the QA flavour of the desktop app, for QA teams driving the packaged app with Playwright
// (docs/testing.md#the-packaged-app). It is the app of electron-builder.config.ts with one fuse different —
// `EnableNodeCliInspectArguments` on, as Playwright's `_electron.launch` starts the app with `--inspect=0` — under its
// own name and id so that it installs beside the real app, into dist-qa/, never published (not for end users: anyone
// who can start it can attach a debugger).
import type { Configuration } from 'electron-builder';
import config, { afterPackQa } from './electron-builder.config';

const qaConfig: Configuration = {
  ...config,
  appId: 'dev.switchboard.desktop.qa',
  productName: 'Switchboard QA',
  directories: { ...config.directories, output: 'dist-qa' },
  afterPack: afterPackQa,
  linux: { ...config.linux, executableName: 'switchboard-qa' },
  publish: null,
};

export default qaConfig;
